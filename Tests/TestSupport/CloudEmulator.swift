import Foundation

/// What the cloud emulators (Tests/CloudEmulators/*.py) have in common for a test: two ports on
/// 127.0.0.1 — the API (with the OAuth endpoints) and the download host — and the control
/// endpoint (`/_control`) that steers them and tells what they answered. Stopped when the test
/// process ends (a `ServerProcess`).
public struct CloudEmulator: Sendable {
    public let apiPort: Int
    public let downloadPort: Int
    let process: ServerProcess

    /// One request the emulator answered.
    public struct Exchange: Decodable, Sendable {
        /// `api` or `download`.
        public let host: String
        public let method: String
        public let path: String
        public let status: Int
        public let bytes: Int
        public let range: String?
        public let authorized: Bool
    }

    /// Runs `script` with `--api-port` and `--download-port` of free ports and `arguments`
    /// (`downloadPort` gives more, knowing the download port), once both listen.
    static func start(_ name: String, script: URL, arguments: [String], downloadArguments: ((Int) throws -> [String])? = nil) async throws -> CloudEmulator {
        var said = ""
        for _ in 0..<5 {
            let api = try WebDAVTestServer.freePort(), download = try WebDAVTestServer.freePort()
            let all = [script.path, "--api-port", String(api), "--download-port", String(download)] + arguments
                + (try downloadArguments?(download) ?? [])
            let server = try ServerProcess(name, command: #"python3 "$@""#, arguments: all)
            do {
                try await WebDAVTestServer.waitForListener(port: api) { "the emulator did not come up: \(server.errorSoFar())" }
                try await WebDAVTestServer.waitForListener(port: download) { "the emulator did not come up: \(server.errorSoFar())" }
                return CloudEmulator(apiPort: api, downloadPort: download, process: server)
            } catch {
                said = "\(error)"
                await server.stop()
            }
        }
        throw TestSupportError(said)
    }

    public var apiURL: URL { URL(string: "http://127.0.0.1:\(apiPort)")! }

    /// Changes how the emulator behaves: a JSON object.
    public func control(_ json: String) async throws {
        try await ChildProcess.check("python3", ["-c", """
            import sys, urllib.request
            urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method="POST")).read()
            """, apiURL.absoluteString + "/_control", json])
    }

    /// Approves (or denies) a device login, as a user who typed `userCode` on the verification page.
    public func enter(userCode: String, deny: Bool = false) async throws {
        try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()",
                                                 apiURL.absoluteString + "/device?user_code=\(userCode)" + (deny ? "&deny=1" : "")])
    }

    /// Every request answered so far.
    public func log() async throws -> [Exchange] {
        let result = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                                                              apiURL.absoluteString + "/_control/log"])
        return try JSONDecoder().decode([Exchange].self, from: Data(result.stdout.utf8))
    }

    /// Body bytes the download host sent.
    public func downloadedBytes() async throws -> Int {
        try await log().filter { $0.host == "download" }.reduce(0) { $0 + $1.bytes }
    }

    /// Copies a file into `root` at `path` (folders made as needed).
    @discardableResult
    static func publish(_ file: URL, as path: String, in root: URL) throws -> URL {
        let target = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: file, to: target)
        return target
    }

    public func stop() async {
        await process.stop()
    }
}
