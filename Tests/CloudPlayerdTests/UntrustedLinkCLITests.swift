import Foundation
import Testing
import TestSupport

/// A podcast feed that names a service of this machine (issue 27's security review), as a user
/// meets it: scanned, its episode queued by library id and played from `cloudplayerctl`. The
/// local service's own request log is the evidence; the daemon's journal says why.
@Suite(.timeLimit(.minutes(4)))
struct UntrustedLinkCLITests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    @Test("an enclosure at http://127.0.0.1:PORT/admin/delete?all=1.mp3 is never requested; the failed entry says why; the feed's own episode plays")
    func feedNamesLocalService() async throws {
        let origin = try await LoggingHTTPServer()
        let local = try await LoggingHTTPServer()
        let audio = try await LibraryTree.audio().bytes
        try origin.publish(Data(audio), at: "own.mp3")
        try origin.publish(Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Cast</title>
            <item><title>Delete All</title><pubDate>Fri, 20 Nov 2026 10:00:00 +0000</pubDate>
            <enclosure url="http://127.0.0.1:\(local.port)/admin/delete?all=1.mp3" type="audio/mpeg" length="1000"/></item>
            <item><title>Own</title><pubDate>Mon, 02 Nov 2026 10:00:00 +0000</pubDate>
            <enclosure url="\(origin.baseURL.absoluteString)own.mp3" type="audio/mpeg" length="\(audio.count)"/></item>
            </channel></rss>
            """.utf8), at: "feed.xml")
        let directory = try Fixtures.shared.scratchDirectory()
        let config = directory.appendingPathComponent("config.toml")
        try Data("""
            [[source]]
            name = "pod"
            type = "feed"
            url = "\(origin.baseURL.absoluteString)feed.xml"
            """.utf8).write(to: config)
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        func ctl(_ arguments: String...) async throws -> ProcessResult { try await bus.run(BuiltProducts.cloudplayerctl, arguments) }

        let scan = try await ctl("scan", "pod")
        #expect(scan.status == 0 && scan.stdout.contains("pod: 0 folders, 2 tracks"), "\(scan.stdout) \(scan.stderr)")
        let listed = try await ctl("ls", "--source", "pod", "--json")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        let bad = try #require(rows.first { $0["title"] as? String == "Delete All" }?["id"] as? Int, "\(listed.stdout)")
        let own = try #require(rows.first { $0["title"] as? String == "Own" }?["id"] as? Int, "\(listed.stdout)")
        #expect(try await ctl("queue", "add", String(bad), String(own)).status == 0)
        #expect(try await ctl("play").status == 0)
        // The first entry fails with the reason in the journal; the second, the feed's own, plays.
        #expect(try await eventually(within: 60) {
            daemon.errorSoFar().contains("track failed") && daemon.errorSoFar().contains("127.0.0.1, a loopback address")
        }, "\(daemon.errorSoFar().suffix(3000))")
        #expect(try await eventually(within: 60) { try origin.requests().contains { $0.path == "/own.mp3" } })
        let localAsked = try local.requests()
        #expect(localAsked.isEmpty, "the local service was asked: \(localAsked)")
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
        await origin.stop()
        await local.stop()
    }
}
