import Foundation
import Testing
import TestSupport

/// A SHOUTcast 1 station (its status line `ICY 200 OK`, HTTP/1.0's to libcurl) through
/// the daemon: opened with MPRIS, it plays, and its ICY title is the one MPRIS shows.
@Suite(.timeLimit(.minutes(3))) struct ICYStatusDaemonTests {
    @Test("`playerctl open` of a station answering `ICY 200 OK`: it plays, and `playerctl metadata title` shows its ICY title")
    func opens() async throws {
        var options = ICYStreamServer.Options()
        options.icyStatusLine = true
        options.pace = .times(8)
        options.name = "Shoutcast One"
        options.titles = [.init(at: 0, "Old Artist - Old Song")]
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        let opened = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "open", server.url.absoluteString])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try await rig.waitForTitle("Old Song"), "\(rig.daemon.errorSoFar())")
        #expect(try await rig.metadata("artist") == "Old Artist")
        #expect(try await rig.metadata("album") == "Shoutcast One")
        #expect(try await rig.property("PlaybackStatus") == "s \"Playing\"")
    }
}
