import Foundation

/// A real Subsonic server on 127.0.0.1 — Supysonic, which speaks API 1.12.0 and so takes only
/// the hex-encoded password — with one user and one music folder, MP3 to Opus transcoding
/// (mpg123 and opusenc: a `stream` sent as it is made, without a length), its own config and SQLite
/// database in a scratch folder, stopped when the test process ends (a `ServerProcess`). Put
/// files in `music`, then `scan()`: Supysonic reads their tags, and serves them from then on.
public final class SubsonicTestServer: Sendable {
    public let music: URL
    public let port: Int
    public let username = "anna"
    public let password: String
    /// The scratch folder: `supysonic.conf`, the database, the server's cache.
    private let folder: URL
    private let process: ServerProcess

    /// Runs a Python snippet in `folder`, where Supysonic finds its `supysonic.conf` (the last
    /// place it looks, so it wins), with `HOME` there too so no user's config is read.
    private static let inFolder = "import os, sys; os.chdir(sys.argv[1]); sys.argv = sys.argv[1:]; "

    public init() async throws {
        folder = try Fixtures.shared.scratchDirectory()
        music = folder.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        password = "pw+\(UUID().uuidString.prefix(12))"
        try """
            [base]
            database_uri = sqlite:///\(folder.path)/supysonic.db
            [webapp]
            cache_dir = \(folder.path)/cache
            log_level = WARNING
            mount_webui = no
            [daemon]
            socket = \(folder.path)/daemon.sock
            run_watcher = no
            [transcoding]
            decoder_mp3 = mpg123 --quiet -w - %srcpath
            encoder_opus = opusenc --quiet --bitrate %outrate - -
            """.write(to: folder.appendingPathComponent("supysonic.conf"), atomically: true, encoding: .utf8)
        try await Self.cli(folder, ["user", "add", username, "-p", password])
        try await Self.cli(folder, ["folder", "add", "music", music.path])
        let folder = folder
        let (ports, server) = try await ServerProcess.onOwnPorts("Supysonic") { ports in
            try ServerProcess("supysonic", command: #"python3 -c "$@""#,
                              arguments: [Self.inFolder + "from supysonic.server import main; main(sys.argv[1:])", folder.path,
                                          "-S", "waitress", "-h", "127.0.0.1", "-p", String(ports[0]), "--threads", "8"],
                              environment: ["HOME": folder.path])
        }
        (port, process) = (ports[0], server)
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Copies a file into the music folder at `path` (folders made as needed).
    @discardableResult
    public func publish(_ file: URL, as path: String) throws -> URL {
        let target = music.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: file, to: target)
        return target
    }

    /// Has Supysonic read the music folder (new, changed and removed files).
    public func scan() async throws {
        try await Self.cli(folder, ["folder", "scan", "--force", "music"])
    }

    /// Calls the API as the user (`createPlaylist`, say) and returns the answer; throws if the
    /// call is refused.
    @discardableResult
    public func call(_ method: String, _ parameters: [(String, String)]) async throws -> String {
        let hex = password.utf8.map { String(format: "%02x", $0) }.joined()
        var query = URLComponents()
        query.queryItems = (parameters + [("u", username), ("p", "enc:" + hex), ("c", "tests"), ("v", "1.12.0"), ("f", "json")])
            .map { URLQueryItem(name: $0.0, value: $0.1) }
        let url = baseURL.absoluteString + "rest/" + method + "?" + (query.percentEncodedQuery ?? "")
        let result = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", url])
        guard result.stdout.contains("\"status\":\"ok\"") else { throw TestSupportError("\(method) failed: \(result.stdout)") }
        return result.stdout
    }

    /// Runs `supysonic-cli` with these arguments, in the server's folder.
    @discardableResult
    public func cli(_ arguments: [String]) async throws -> ProcessResult {
        try await Self.cli(folder, arguments)
    }

    @discardableResult
    private static func cli(_ folder: URL, _ arguments: [String]) async throws -> ProcessResult {
        try await ChildProcess.check("python3", ["-c", inFolder + "from supysonic.cli import main; main()", folder.path] + arguments,
                                     environment: ["HOME": folder.path])
    }

    /// Stops the server now.
    public func stop() async {
        await process.stop()
    }
}
