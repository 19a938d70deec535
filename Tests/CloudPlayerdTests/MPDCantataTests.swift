import Foundation
import Testing
import TestSupport

/// Cantata as its users drive it, through the logging proxy (`mpd_log_proxy.py`), so that every
/// answer it got is on record: an `ACK` is the red error bar Cantata shows ("MPD reported the
/// following error: …").
@Suite(.timeLimit(.minutes(5)))
struct MPDCantataTests {
    @Test("Cantata under Xvfb plays three tracks in a row, each to its end, and gets no error answer at any track change (replay_gain_status among them); a screenshot is kept")
    func threeTracksWithoutAnErrorBar() async throws {
        let music = try await MPDTools.library()
        let rig = try await MPDDaemonRig.start(extra: "\n[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(music.path)\"\n")
        defer { Task { await rig.stop() } }
        #expect(try await rig.mpc("update", "--wait").status == 0)
        for title in ["Aurora", "Basalt", "Cinder"] {
            #expect(try await rig.mpc("findadd", "title", title).status == 0)
        }
        let proxy = try await MPDLogProxy(to: rig.port)
        defer { Task { await proxy.stop() } }
        let cantata = try await CantataSession(port: proxy.port)
        defer { Task { await cantata.stop() } }
        try await cantata.waitForWindow()
        try await cantata.play()
        // The three play one after another (each about a second) and the queue ends; Cantata
        // asks `replay_gain_status` as each starts.
        func asked() -> Int { proxy.lines().filter { $0.hasSuffix(" C: replay_gain_status") }.count }
        #expect(try await eventually(within: 120) { asked() >= 3 }, "Cantata asked replay_gain_status \(asked()) times")
        #expect(try await eventually(within: 60) {
            MPDSocketClient.value("state", in: try rig.client().command("status")) == "stop"
        })
        // Errors: none once it plays; before, only the two MPD 0.23 gives it too (its probe for
        // client-to-client URIs, and a playlist of its own it looks for), which it shows no bar for.
        let exchanges = proxy.lines()
        let played = try #require(exchanges.firstIndex { $0.contains(" C: play ") || $0.hasSuffix(" C: play") })
        let errors = exchanges.filter { $0.contains(" S: ACK") }.map { $0.split(separator: " S: ").last.map(String.init) ?? "" }
        #expect(!exchanges[played...].contains { $0.contains(" S: ACK") }, "Cantata was answered with errors: \(errors)")
        #expect(Set(errors).isSubset(of: ["ACK [2@0] {lsinfo} Unsupported URI scheme", "ACK [50@0] {listplaylistinfo} No such playlist"]),
                "\(errors)")
        let screenshot = try ScratchSpace.directory().appendingPathComponent("cantata-three-tracks.png")
        try await cantata.screenshot(to: screenshot)
        try MPDCloudClientsTests.keep(try Data(contentsOf: screenshot), as: "cantata-three-tracks.png")
    }
}
