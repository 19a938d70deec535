import Foundation

/// One of the cloud emulators (Tests/CloudEmulators/*.py, each written from a provider's public
/// docs) on 127.0.0.1: its API on one port, a second host (download, content) on another, its
/// files in a scratch folder. What every emulator's test server shares: starting it (on fresh
/// ports, again if a port was taken meanwhile), steering it (`/_control`), reading its log of
/// exchanges, publishing files. Stopped when the test process ends (a `ServerProcess`).
public final class CloudEmulator: Sendable {
    public let folder: URL
    public let apiPort: Int
    public let secondPort: Int
    private let process: ServerProcess

    /// `script`: the file in Tests/CloudEmulators; `arguments`: its options for the two ports.
    public init(script: String, folderName: String, arguments: (_ api: Int, _ second: Int) throws -> [String]) async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CloudEmulators/\(script)").path
        let folder = try Fixtures.shared.scratchDirectory().appendingPathComponent(folderName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (ports, server) = try await ServerProcess.onOwnPorts(script, count: 2) { ports in
            try ServerProcess(script, command: #"python3 "$@""#, arguments: [path, "--root", folder.path] + (try arguments(ports[0], ports[1])))
        }
        (self.folder, apiPort, secondPort, process) = (folder, ports[0], ports[1], server)
    }

    public var apiURL: URL { URL(string: "http://127.0.0.1:\(apiPort)")! }

    /// Copies a file into the emulator's files at `path` (folders made as needed).
    @discardableResult
    public func publish(_ file: URL, as path: String) throws -> URL {
        let target = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: file, to: target)
        return target
    }

    /// Changes how the emulator behaves: a JSON object (the keys each emulator's server lists).
    public func control(_ json: String) async throws {
        try await ChildProcess.check("python3", ["-c", """
            import sys, urllib.request
            urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method="POST")).read()
            """, apiURL.absoluteString + "/_control", json])
    }

    /// The body of a GET of `path` on the API's port (`path` as it is, query and all).
    public func get(_ path: String) async throws -> String {
        try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                                                 apiURL.absoluteString + path]).stdout
    }

    /// Every exchange answered so far, as the emulator logs them.
    public func log<Exchange: Decodable>(_ type: Exchange.Type) async throws -> [Exchange] {
        try JSONDecoder().decode([Exchange].self, from: Data(try await get("/_control/log").utf8))
    }

    public func stop() async {
        await process.stop()
    }
}
