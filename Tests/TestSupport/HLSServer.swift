import Foundation

/// A static HTTP server for HLS on 127.0.0.1: nginx (`ServerProcess.nginx`) serving a fresh folder
/// (`root`) as plain files, as a CDN serves a stream's playlists and segments — byte ranges,
/// ETags, 404 for what is not there (a test deletes a file to make it fail). Stopped when the
/// test process ends (a `ServerProcess`).
///
/// Each file goes out with the type Apple's HLS authoring spec gives it (a client that sniffs
/// must not need to, and one that trusts the type is tested against the right one), and
/// playlists with `Cache-Control: no-cache`, as live origins send them: a live playlist changes
/// under the same URL. Every request is logged (`requests()`), so a test can tell that nothing
/// was fetched twice and that the key was.
public final class HLSServer: Sendable {
    public let port: Int
    /// The served folder: `/x/y` on the server is `root/x/y`. `HLSFixtures` and `HLSLiveEncoder`
    /// put their sets in folders of their own in it.
    public let root: URL
    /// nginx's config, logs and temporary files.
    public let folder: URL
    /// One line per answered request (`HLSServer.Request`); nginx writes it once the answer is sent.
    public let accessLog: URL
    private let process: ServerProcess

    /// The types, by file extension: Apple's for playlists (RFC 8216 §4 allows `audio/mpegurl`
    /// too), MPEG-TS, packed audio, fMP4 (the init segment as `video/mp4`, fragments as
    /// `audio/mp4`), and a key as bytes.
    public static let types: [String: String] = [
        "m3u8": "application/vnd.apple.mpegurl", "ts": "video/mp2t", "aac": "audio/aac", "mp3": "audio/mpeg",
        "mp4": "video/mp4", "m4s": "audio/mp4", "m4a": "audio/mp4", "key": "application/octet-stream",
    ]

    public init() async throws {
        let folder = try ScratchSpace.directory()
        let root = folder.appendingPathComponent("www"), accessLog = folder.appendingPathComponent("access.log")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        (self.folder, self.root, self.accessLog) = (folder, root, accessLog)
        let types = Self.types.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key);" }.joined(separator: " ")
        (port, process) = try await ServerProcess.nginx(in: folder) { port in
            """
            log_format hls '$request_method\t$request_uri\t$status\t$body_bytes_sent\t$http_range';
            access_log \(accessLog.path) hls;
            types { \(types) }
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
                # A playlist moved elsewhere, as a broadcaster's redirects to its CDN: /moved/X.m3u8
                # answers 302 to /X.m3u8, and nothing else is under /moved/. (Before the next:
                # nginx takes the first regular expression that matches.)
                location ~ ^/moved/(.*\\.m3u8)$ {
                    return 302 /$1;
                }
                location ~ \\.m3u8$ {
                    add_header Cache-Control no-cache;
                }
            }
            """
        }
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// A URL that redirects to the playlist at `path` ("set/index.m3u8"): its relative links are
    /// relative to where it was found, not to this.
    public func movedURL(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/moved/\(path)")! }

    /// The URL of `path` in the served folder ("set/index.m3u8", no leading slash).
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// The requests answered so far, in order.
    public func requests() -> [Request] {
        let text = (try? String(contentsOf: accessLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap(Request.init(logLine:))
    }

    /// How many GET requests for `path` (as requested: "/set/seg0.ts") were answered so far.
    public func count(of path: String) -> Int {
        requests().filter { $0.method == "GET" && $0.path == path }.count
    }

    /// Paths (as requested) GET more than once so far, each with its count: what a client that
    /// must fetch nothing twice should leave empty.
    public func fetchedTwice() -> [String: Int] {
        Dictionary(requests().filter { $0.method == "GET" }.map { ($0.path, 1) }, uniquingKeysWith: +).filter { $0.value > 1 }
    }

    /// Waits until `path` was answered `count` times (the log line comes once the answer is
    /// sent), and returns its requests. Throws after `seconds`, a bound only a failure reaches.
    @discardableResult
    public func waitForRequests(to path: String, count: Int = 1, within seconds: Int = 60) async throws -> [Request] {
        var found: [Request] = []
        let reached = try await eventually(within: seconds) {
            found = requests().filter { $0.path == path }
            return found.count >= count
        }
        guard reached else {
            throw TestSupportError("\(path) was requested \(found.count) times, not \(count), in \(seconds) s; "
                                   + "the server answered: \(requests().suffix(20).map(\.path))")
        }
        return found
    }

    /// Freezes nginx (SIGSTOP) — its connections stay open and silent, as a stalled CDN's do — or
    /// thaws it (SIGCONT).
    public func freeze(_ frozen: Bool) {
        process.signalServer(frozen ? SIGSTOP : SIGCONT)
    }

    /// Stops nginx now: every connection ends, and nothing more is answered.
    public func stop() async {
        await process.stop()
    }
}
