import Foundation
import Testing
import TestSupport

/// A feed's Podcasting 2.0 chapters (`<podcast:chapters>`, a JSON file beside the episode) through
/// the daemon: a feed served by a plain HTTP server that logs each request — Python's http.server
/// and nginx —, scanned, and its episode played (null output, a private bus).
@Suite(.timeLimit(.minutes(4))) struct PodcastChaptersTests {
    /// The static servers the feed is put on, each logging what it answered.
    enum Host: String, CaseIterable, Sendable {
        case python, nginx

        /// The served folder, the base URL, how many GETs of a path were answered, and the stop.
        func start() async throws -> (root: URL, base: URL, gets: @Sendable (String) throws -> Int, stop: @Sendable () async -> Void) {
            switch self {
            case .python:
                let server = try await LoggingHTTPServer()
                return (server.root, server.baseURL, { path in try server.requests().filter { $0.method == "GET" && $0.path == path }.count },
                        { await server.stop() })
            case .nginx:
                let server = try await HLSServer()
                return (server.root, server.baseURL, { path in server.count(of: path) }, { await server.stop() })
            }
        }
    }

    @Test("<podcast:chapters>: the JSON file fetched once as the episode plays, its chapters shown and jumped to, a silent one (toc false) left out, a chapter's img as mpris:artUrl; played again, read from the cache",
          arguments: Host.allCases)
    func feedChapters(_ host: Host) async throws {
        let server = try await host.start()
        defer { Task { await server.stop() } }
        func publish(_ data: Data, at path: String) throws {
            let file = server.root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        try publish(try Data(contentsOf: try await Fixtures.shared.url(.longMP3)), at: "ep/episode.mp3")
        try publish(Data(#"""
            {"version": "1.2.0", "chapters": [
              {"startTime": 0, "title": "Welcome"},
              {"startTime": 4.5, "title": "Sponsor", "toc": false},
              {"startTime": 12.25, "title": "Main topic", "img": "art/main.png"},
              {"startTime": 30, "title": "Goodbye"}]}
            """#.utf8), at: "ep/chapters.json")
        let picture = try Data(contentsOf: try await Fixtures.shared.url(.coverArt))
        try publish(picture, at: "ep/art/main.png")
        try publish(Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Chaptered Cast</title>
            <item><title>Chaptered Episode</title><pubDate>Fri, 20 Nov 2026 10:00:00 +0000</pubDate>
            <enclosure url="ep/episode.mp3" type="audio/mpeg" length="1000"/>
            <podcast:chapters url="ep/chapters.json" type="application/json+chapters"/></item>
            </channel></rss>
            """.utf8), at: "feed.xml")
        let rig = try await DaemonRig.start(config: "[[source]]\nname = \"pod\"\ntype = \"feed\"\nurl = \"\(server.base.absoluteString)feed.xml\"\n")
        defer { Task { await rig.stop() } }
        func titles() async throws -> [String] {
            (try await rig.status()["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
        }
        func fetches() throws -> Int { try server.gets("/ep/chapters.json") }

        #expect(try await rig.ctl("scan").status == 0)
        let found = try JSONSerialization.jsonObject(with: Data(try await rig.ctl("search", "Chaptered", "--json").stdout.utf8)) as? [[String: Any]]
        let id = try #require(found?.first?["id"] as? Int64, "\(String(describing: found))").description
        #expect(try fetches() == 0, "a scan does not fetch chapters")
        #expect(try await rig.ctl("queue", "add", id, "--play").status == 0)
        #expect(try await eventually(within: 20) { try await titles() == ["Welcome", "Main topic", "Goodbye"] })
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await rig.ctl("chapter", "2").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["position"] as? Double == 12.25 })
        #expect(try await rig.waitForTitle("Main topic"), "the chapter is MPRIS's title")
        // Its picture (`img`, relative to the chapters file) fetched into a local file: mpris:artUrl.
        #expect(try await eventually(within: 20) { try await rig.metadata("mpris:artUrl").hasPrefix("file://") })
        let art = try await rig.metadata("mpris:artUrl")
        #expect(try URL(string: art).map { try Data(contentsOf: $0) } == picture, "\(art)")
        #expect(try await rig.ctl("chapter", "1").status == 0)
        #expect(try await rig.waitForTitle("Welcome"))
        #expect(try await eventually(within: 20) { try await rig.metadata("mpris:artUrl").isEmpty }, "a chapter without one: the track's (none)")
        #expect(try fetches() == 1)

        // Played again from the start: the chapters come from the cache, not the server.
        #expect(try await rig.ctl("stop").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Stopped" })
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Playing" })
        #expect(try await eventually(within: 20) { try await titles() == ["Welcome", "Main topic", "Goodbye"] })
        #expect(try fetches() == 1, "fetched once")
    }
}
