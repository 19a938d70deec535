import Foundation

/// The local ListenBrainz API server (Tests/CloudEmulators/listenbrainz.py, written from the
/// API documentation) on 127.0.0.1, stopped when the test process ends (a `ServerProcess`).
/// What it stored, and the answers it gave, are read back through its test-only `/_emulator/`.
public final class ListenBrainzTestServer: Sendable {
    /// What the service holds: stored listens (each once), "playing now" notices, and every
    /// submission's type, listen count and answer status, in order.
    public struct State: Sendable {
        public let listens: [Listen]
        public let playingNow: [Listen]
        public let answers: [(type: String, count: Int, status: Int)]
    }

    public struct Listen: Sendable, Equatable {
        public let user: String
        public let listenedAt: Int?
        public let artist: String
        public let track: String
        public let release: String?
        public let durationMs: Int?
    }

    public let port: Int
    private let process: ServerProcess

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CloudEmulators/listenbrainz.py")

    /// `tokens`: user token → user name; any other token is refused with 401.
    public init(tokens: [String: String]) async throws {
        let portFile = try ScratchSpace.directory().appendingPathComponent("port")
        process = try ServerProcess("listenbrainz", command: #"python3 "$@""#,
                                    arguments: [Self.script.path, portFile.path] + tokens.map { "\($0.key)=\($0.value)" })
        for _ in 0..<2400 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = Int(text) {
                port = number
                return
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        await process.stop()
        throw TestSupportError("the ListenBrainz emulator did not start")
    }

    /// The API root, as `[scrobble] listenbrainz_url` takes it.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Changes how it behaves from now on: `limit` requests per `window` seconds; the next
    /// `fail` submissions answered 503, the next `rateLimit` answered 429; `hangAfterStore`: a
    /// submission is stored, then answered only that many seconds later.
    public func configure(limit: Int? = nil, window: Double? = nil, fail: Int? = nil, rateLimit: Int? = nil,
                          hangAfterStore: Double? = nil, tokens: [String: String]? = nil) async throws {
        var changes: [String: Any] = [:]
        if let limit { changes["limit"] = limit }
        if let window { changes["window"] = window }
        if let fail { changes["fail"] = fail }
        if let rateLimit { changes["rate_limit"] = rateLimit }
        if let hangAfterStore { changes["hang_after_store"] = hangAfterStore }
        if let tokens { changes["tokens"] = tokens }
        let body = String(decoding: try JSONSerialization.data(withJSONObject: changes), as: UTF8.self)
        try await ChildProcess.check("curl", ["-sf", "-m", "10", "-X", "POST", "--data-binary", body, "\(url)/_emulator/configure"])
    }

    public func state() async throws -> State {
        let answer = try await ChildProcess.check("curl", ["-sf", "-m", "10", "\(url)/_emulator/state"])
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any] else {
            throw TestSupportError("the emulator's state is not JSON: \(answer.stdout)")
        }
        func listens(_ key: String) -> [Listen] {
            (object[key] as? [[String: Any]] ?? []).map { item in
                let meta = item["track_metadata"] as? [String: Any] ?? [:]
                let info = meta["additional_info"] as? [String: Any] ?? [:]
                return Listen(user: item["user"] as? String ?? "", listenedAt: item["listened_at"] as? Int,
                              artist: meta["artist_name"] as? String ?? "", track: meta["track_name"] as? String ?? "",
                              release: meta["release_name"] as? String, durationMs: info["duration_ms"] as? Int)
            }
        }
        let answers = (object["answers"] as? [[Any]] ?? []).map { row in
            (type: row.first as? String ?? "", count: row.dropFirst().first as? Int ?? 0, status: row.last as? Int ?? 0)
        }
        return State(listens: listens("listens"), playingNow: listens("playing_now"), answers: answers)
    }

    public func stop() async {
        await process.stop()
    }
}
