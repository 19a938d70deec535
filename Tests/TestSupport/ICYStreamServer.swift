import Foundation

/// A live internet-radio stream on 127.0.0.1 sent the way SHOUTcast and Icecast send one —
/// `HTTP/1.0 200` (or `ICY 200 OK`), no length, `icy-*` headers, ICY metadata blocks every
/// `icy-metaint` bytes when asked — by Tests/RadioServers/icy_stream.py. It does what Icecast
/// cannot be made to do on cue: titles at chosen byte offsets, absurd `icy-metaint` values,
/// titles that are not text, a block that runs past the data, and the faults a "stop means stop"
/// test needs (stall, trickle, never answer, drop and reconnect). Every request is logged, so a
/// test counts reconnects. Stopped when the test process ends (a `ServerProcess`).
public final class ICYStreamServer: Sendable {
    public let port: Int
    public let options: Options
    /// One JSON line per request, written before it is answered (`requests()` reads it).
    public let logFile: URL
    private let process: ServerProcess

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RadioServers/icy_stream.py")

    /// Serves `file` as the stream. `port`: a given port rather than a free one — a server
    /// started again where a stopped one was, as a restarted station is.
    public init(file: URL, options: Options = Options(), port: Int? = nil) async throws {
        let folder = try ScratchSpace.directory()
        let portFile = folder.appendingPathComponent("port")
        logFile = folder.appendingPathComponent("requests.jsonl")
        self.options = options
        let arguments = [Self.script.path, "--port-file", portFile.path, "--file", file.path, "--log", logFile.path]
            + options.arguments + (port.map { ["--port", String($0)] } ?? [])
        let process = try ServerProcess("icy-stream", command: #"python3 "$@""#, arguments: arguments)
        self.process = process
        // Two minutes: a bound only a server that hangs on its way up reaches.
        for _ in 0..<2400 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = Int(text) {
                self.port = number
                return
            }
            if process.serverEnded { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let said = process.errorSoFar()
        await process.stop()
        throw TestSupportError("icy_stream.py did not start: \(said)")
    }

    /// The stream's URL: `options.path`, or `/stream` when every path is served.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)\(options.path ?? "/stream")")! }

    /// One request as the server logged it.
    public struct Request: Sendable, Equatable {
        /// 1 for the first request the server got, and so on.
        public let number: Int
        public let method: String
        public let path: String
        /// The request's headers, in order, as sent.
        public let headers: [[String]]
        /// The audio offset (in the file) the answer starts at: not 0 after a drop with `resume`.
        public let start: Int

        /// The value of the first header named `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }
    }

    /// Every request so far, in order.
    public func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let number = object["n"] as? Int, let method = object["method"] as? String, let path = object["path"] as? String,
                  let headers = object["headers"] as? [[String]], let start = object["start"] as? Int else {
                throw TestSupportError("icy_stream.py logged a line it should not have: \(line)")
            }
            return Request(number: number, method: method, path: path, headers: headers, start: start)
        }
    }

    /// Waits until the server has had `count` requests (a reconnect is one more), and returns
    /// them all; throws after `seconds`, a bound only a failure reaches.
    @discardableResult
    public func waitForRequests(_ count: Int, within seconds: Int = 60) async throws -> [Request] {
        var seen: [Request] = []
        let arrived = try await eventually(within: seconds) {
            seen = try requests()
            return seen.count >= count
        }
        guard arrived else { throw TestSupportError("the stream had \(seen.count) requests, not \(count), in \(seconds) s") }
        return seen
    }

    /// Stops the server now (its connections close), as a station that goes down.
    public func stop() async {
        await process.stop()
    }
}
