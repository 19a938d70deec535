import Foundation

/// A plain HTTP server on 127.0.0.1 (Python's `http.server`) that serves the files of a folder
/// and writes one line per request before answering — method, path with query, and whether an
/// `Authorization` header came: the evidence of what a document's links made the daemon ask, and
/// with which credentials. A file `NAME.redirect` makes `NAME` answer 302 to the URL it holds.
public final class LoggingHTTPServer: Sendable {
    public let root: URL
    public let port: Int
    private let log: URL
    private let process: ServerProcess

    /// One request as the server saw it.
    public struct Request: Sendable, Equatable {
        public let method: String
        public let path: String
        public let authorized: Bool
    }

    private static let script = #"""
        import http.server, os, sys
        port, root, log = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **k):
                super().__init__(*a, directory=root, **k)
            def note(self):
                with open(log, "a") as out:
                    out.write("%s %s %s\n" % (self.command, self.path, "auth" if self.headers.get("Authorization") else "none"))
                    out.flush()
            def do_GET(self):
                self.note()
                moved = self.translate_path(self.path) + ".redirect"
                if os.path.isfile(moved):
                    self.send_response(302)
                    self.send_header("Location", open(moved).read().strip())
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                super().do_GET()
            def do_HEAD(self):
                self.note()
                super().do_HEAD()
            def log_message(self, *a):
                pass
        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#

    public init() async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        root = folder.appendingPathComponent("root")
        log = folder.appendingPathComponent("requests.log")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data().write(to: log)
        let (root, log) = (root, log)
        let (ports, process) = try await ServerProcess.onOwnPorts("logging HTTP server") { ports in
            try ServerProcess("logging-http", command: #"python3 -c "$1" "$2" "$3" "$4""#,
                              arguments: [Self.script, String(ports[0]), root.path, log.path])
        }
        port = ports[0]
        self.process = process
    }

    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Writes `data` at `path` below the root.
    public func publish(_ data: Data, at path: String) throws {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// The requests so far, in order.
    public func requests() throws -> [Request] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3 else { return nil }
            return Request(method: String(parts[0]), path: String(parts[1]), authorized: parts[2] == "auth")
        }
    }

    public func stop() async {
        await process.stop()
    }
}
