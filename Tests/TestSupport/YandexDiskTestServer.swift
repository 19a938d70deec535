import Foundation

/// The Yandex.Disk emulator (Tests/CloudEmulators/yandex_disk.py) on 127.0.0.1: the REST API and
/// Yandex OAuth on one port, the download host its links point at on another. The disk is a
/// scratch folder (`disk`); `token` is accepted for ever, as a token from the config file;
/// tokens from a login expire as the test says (`control`). Stopped when the test process ends
/// (a `ServerProcess`).
public final class YandexDiskTestServer: Sendable {
    public let disk: URL
    public let apiPort: Int
    public let downloadPort: Int
    public let token: String
    public let clientID = "cloudplayerd-test"
    private let process: ServerProcess

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CloudEmulators/yandex_disk.py")

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

    /// `downloadBase`: what links start with (a proxy in front of the download host); the
    /// download host itself when nil.
    public init(downloadBase: ((Int) throws -> String)? = nil) async throws {
        disk = try Fixtures.shared.scratchDirectory().appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        token = "AQ-permanent-\(UUID().uuidString.prefix(12))"
        var said = ""
        for _ in 0..<5 {
            let api = try WebDAVTestServer.freePort(), download = try WebDAVTestServer.freePort()
            var arguments = [Self.script.path, "--root", disk.path, "--api-port", String(api), "--download-port", String(download),
                             "--token", token, "--client-id", clientID]
            if let downloadBase { arguments += ["--download-base", try downloadBase(download)] }
            let server = try ServerProcess("yandex-disk", command: #"python3 "$@""#, arguments: arguments)
            do {
                try await WebDAVTestServer.waitForListener(port: api) { "the emulator did not come up: \(server.errorSoFar())" }
                try await WebDAVTestServer.waitForListener(port: download) { "the emulator did not come up: \(server.errorSoFar())" }
                (apiPort, downloadPort, process) = (api, download, server)
                return
            } catch {
                said = "\(error)"
                await server.stop()
            }
        }
        throw TestSupportError(said)
    }

    public var apiURL: URL { URL(string: "http://127.0.0.1:\(apiPort)")! }

    /// Two `[[source]]` tables: "yd" at /Music, which logs in at the emulator's OAuth endpoints
    /// with the client id, and "plain" at /Other, with the permanent token in the config.
    public var sourcesText: String {
        let api = apiURL.absoluteString
        return """
            [[source]]
            name = "yd"
            type = "yandex-disk"
            path = "/Music"
            api_url = "\(api)"
            client_id = "\(clientID)"
            auth_url = "\(api)/authorize"
            token_url = "\(api)/token"
            device_url = "\(api)/device/code"

            [[source]]
            name = "plain"
            type = "yandex-disk"
            path = "/Other"
            api_url = "\(api)"
            token = "\(token)"
            """
    }

    /// Copies a file onto the disk at `path` (folders made as needed).
    @discardableResult
    public func publish(_ file: URL, as path: String) throws -> URL {
        let target = disk.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: file, to: target)
        return target
    }

    /// Changes how the emulator behaves (`access_ttl`, `link_ttl`, `link_status`, `busy`,
    /// `bad_json`, `html_href`, `forbid`, `forbid_download`, `revoke_refresh`, `rotate_refresh`, `expire_access`, `clear_log`):
    /// a JSON object.
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

    public func stop() async {
        await process.stop()
    }
}
