import Foundation
import Testing
import TestSupport

/// The MPD rigs proven against the real thing: Debian's MPD 0.23 over the shared tagged library,
/// driven by mpc, python-mpd2 (and the raw-protocol client), ncmpcpp in tmux and Cantata under
/// Xvfb — the same rigs then drive cloudplayerd's MPD server.
@Suite(.timeLimit(.minutes(4))) struct MPDRigTests {
    @Test("a real MPD comes up scanned: mpc status, ls, add, play; its pid; the raw exchange")
    func mpcAgainstRealMPD() async throws {
        let server = try await MPDTestServer(music: try await MPDTools.library())
        defer { Task { await server.stop() } }
        let status = try await MPC.check(["status"], port: server.port)
        #expect(status.stdout.contains("volume:"), "\(status.stdout)")
        let top = try await MPC.check(["ls"], port: server.port).stdout.split(separator: "\n").map(String.init)
        // MPD 0.23's lsinfo gives a folder's songs before its subfolders.
        #expect(top == ["untagged.mp3", "Alpha Band", "Beta Ensemble"], "\(top)")
        try await MPC.check(["add", "Alpha Band/First Light"], port: server.port)
        let queue = try await MPC.check(["playlist"], port: server.port).stdout
        #expect(queue.split(separator: "\n").count == 3 && queue.contains("Alpha Band - Aurora"), "\(queue)")
        let playing = try await MPC.check(["play"], port: server.port).stdout
        #expect(playing.contains("[playing]"), "\(playing)")
        let stats = try await MPDPythonClient.exchange(["stats"], port: server.port)
        #expect(stats.hasPrefix("OK MPD 0.23.") && stats.contains("songs: \(MPDTools.songCount)\n"), "\(stats)")
        let pid = try #require(server.pid)
        #expect(ProcFile.read("/proc/\(pid)/status").contains("VmRSS:"))
    }

    @Test("with a password: mpc and python-mpd2 with it may add; a wrong one gets MPD's one error line")
    func password() async throws {
        let server = try await MPDTestServer(music: try await MPDTools.library(), password: "rig-secret")
        defer { Task { await server.stop() } }
        try await MPC.check(["add", "untagged.mp3"], port: server.port, password: "rig-secret")
        let refused = try await MPC.run(["status"], port: server.port, password: "wrong")
        #expect(refused.status != 0 && refused.stderr.contains("incorrect password"), "\(refused.stderr)")
        let withoutOne = try await MPC.run(["add", "untagged.mp3"], port: server.port)
        #expect(withoutOne.status != 0 && withoutOne.stderr.contains("permission"), "\(withoutOne.stderr)")
        let summary = try await MPDPythonClient.run("summary", port: server.port, password: "rig-secret")
        #expect(summary.status == 0 && summary.stdout.contains("songs=\(MPDTools.songCount)"), "\(summary.stderr)")
        let wrong = try await MPDPythonClient.run("summary", port: server.port, password: "wrong")
        #expect(wrong.status == 1 && wrong.stderr.contains("incorrect password"), "\(wrong.stderr)")
    }

    @Test("python-mpd2 idle wakes for a change on another connection, and for one the test makes")
    func pythonIdle() async throws {
        let server = try await MPDTestServer(music: try await MPDTools.library())
        defer { Task { await server.stop() } }
        let woken = try await MPDPythonClient.run("idle", port: server.port)
        #expect(woken.status == 0 && woken.stdout.contains("changed=playlist"), "\(woken.stdout) \(woken.stderr)")
        // Stopped first: the song that run started would otherwise end while the idler waits and
        // wake it with `player` before the change below (seen on a loaded machine).
        try await MPC.check(["stop"], port: server.port)
        let idler = try MPDPythonClient.start("idle", port: server.port, extra: ["--idle-only", "--timeout", "120"])
        #expect(try await eventually { idler.outputSoFar().contains("connected") }, "\(idler.errorSoFar())")
        try await MPC.check(["add", "Beta Ensemble"], port: server.port)
        let ended = await idler.wait()
        #expect(ended.status == 0 && ended.stdout.contains("changed=playlist"), "\(ended.stdout) \(ended.stderr)")
        #expect(try await MPDPythonClient.run("browse", port: server.port).stdout.contains("albumart=Alpha Band/First Light/01 Aurora.mp3"))
    }

    @Test("the logging proxy logs each line mpc sends, in order, and passes the answers through")
    func logProxy() async throws {
        let server = try await MPDTestServer(music: try await MPDTools.library())
        defer { Task { await server.stop() } }
        let proxy = try await MPDLogProxy(to: server.port)
        defer { Task { await proxy.stop() } }
        let found = try await MPC.check(["search", "title", "Glacier"], port: proxy.port).stdout
        #expect(found == "Beta Ensemble/Quiet Rooms/02 Glacier.opus\n")
        let lines = proxy.lines().map { line in line.drop { $0 == " " }.split(separator: " ", maxSplits: 1).last ?? "" }
        #expect(lines.contains("1 C: search Title \"Glacier\""), "\(lines)")
        #expect(lines.first == "1 +: connected" && lines.contains { $0.hasPrefix("1 S: OK MPD 0.23.") }, "\(lines)")
    }

    @Test("ncmpcpp in tmux shows the library: the browser's folders, the media library's artists and albums")
    func ncmpcpp() async throws {
        let server = try await MPDTestServer(music: try await MPDTools.library())
        defer { Task { await server.stop() } }
        let ncmpcpp = try await NcmpcppSession(port: server.port)
        defer { Task { await ncmpcpp.stop() } }
        try await ncmpcpp.send("2")
        let browser = try await ncmpcpp.waitForScreen(containing: "[Beta Ensemble]")
        #expect(browser.contains("[Alpha Band]") && browser.contains("untagged.mp3"), "\(browser)")
        try await ncmpcpp.send("4")
        try await ncmpcpp.waitForScreen(containing: "Media library", "Alpha Band", "Beta Ensemble")
        // The first artist is "<empty>" (the untagged file's); the next is Alpha Band.
        try await ncmpcpp.send("Down")
        // The date as the tag writes it: First Light's is a whole day.
        try await ncmpcpp.waitForScreen(containing: "(2001-03-01) First Light", "(2004) Second Wind")
    }

    @Test("Cantata under Xvfb loads the library and lists its albums; the screenshot's path is printed")
    func cantata() async throws {
        let server = try await MPDTestServer(music: try await MPDTools.library())
        defer { Task { await server.stop() } }
        let cantata = try await CantataSession(port: server.port)
        defer { Task { await cantata.stop() } }
        let windows = try await cantata.waitForWindow()
        let albums = try await cantata.waitForLibrary(albums: Set(MPDTools.albums))
        // Cantata files the untagged song under an album of its own, "Unknown".
        #expect(albums == Set(MPDTools.albums + ["Unknown"]), "\(albums)")
        let screenshot = try ScratchSpace.directory().appendingPathComponent("cantata.png")
        try await cantata.screenshot(to: screenshot)
        let size = try FileManager.default.attributesOfItem(atPath: screenshot.path)[.size] as? Int ?? 0
        #expect(size > 10_000, "a \(size)-byte screenshot")
        print("Cantata (windows \(windows)) screenshot: \(screenshot.path)")
    }
}
