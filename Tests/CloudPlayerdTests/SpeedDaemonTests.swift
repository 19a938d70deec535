import Foundation
import Testing
import TestSupport

/// Speed through the daemon (null output, which plays at a sound card's pace; a private bus): a
/// source's `speed`, MPRIS `Rate` written with busctl and announced, `cloudplayerctl speed`, the
/// position moving at the track's pace, and the speed kept for the track it was chosen on.
@Suite(.timeLimit(.minutes(4))) struct SpeedDaemonTests {
    @Test("a source's speed; Rate written by busctl (announced) and by cloudplayerctl; Position at the pace after a seek; kept for the track, not for another source's")
    func rateThroughTheDaemon() async throws {
        let home = try Fixtures.shared.scratchDirectory()
        let pods = home.appendingPathComponent("pods")
        try FileManager.default.createDirectory(at: pods, withIntermediateDirectories: true)
        let episode = pods.appendingPathComponent("episode.mp3")
        try FileManager.default.copyItem(at: try await Fixtures.shared.url(.longMP3), to: episode)
        let song = try await Fixtures.shared.url(.vbrMP3)
        let rig = try await DaemonRig.start(
            config: "[playback]\nresume_longer_than = \"10s\"\n\n[[source]]\nname = \"pods\"\ntype = \"local\"\npath = \"\(pods.path)\"\nspeed = 1.5\n")
        defer { Task { await rig.stop() } }
        let bus = rig.bus
        let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address, "type='signal',path='\(DaemonRig.path)'"])
        defer { monitor.signal(SIGTERM) }
        while !monitor.outputSoFar().contains("NameAcquired") && !monitor.outputSoFar().contains("member=") {
            try await Task.sleep(for: .milliseconds(20))
        }
        func rate(_ name: String = "Rate") async throws -> String { try await rig.property(name) }
        func position() async throws -> Double { try await rig.status()["position"] as? Double ?? -1 }

        #expect(try await rate("MinimumRate") == "d 0.5")
        #expect(try await rate("MaximumRate") == "d 3")
        #expect(try await rig.ctl("queue", "add", episode.path, song.path).status == 0)
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        let sourceSpeed = try await eventually(within: 20) { try await rate() == "d 1.5" }
        let shown = try await rate()
        #expect(sourceSpeed, "the source's speed: \(shown)")
        #expect(try await rig.status()["speed"] as? Double == 1.5)

        // Written as a widget would; announced with its value, so clients extrapolate at 2.
        let set = try await bus.run("busctl", ["--address=\(bus.address)", "set-property", DaemonRig.name, DaemonRig.path, DaemonRig.player, "Rate", "d", "2"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try await eventually(within: 20) { try await rate() == "d 2" })
        #expect(try await eventually(within: 20) {
            monitor.outputSoFar().components(separatedBy: "signal time=").contains {
                $0.contains("member=PropertiesChanged") && $0.contains("\"Rate\"") && $0.contains("double 2")
            }
        }, "PropertiesChanged(Rate = 2)")

        // After a seek, the position moves at twice the pace of the sound card's clock: over 8 s
        // of the track (4 s of listening), read against the wall clock, a pace of 2 ± 10 %.
        #expect(try await rig.ctl("seek", "10").status == 0)
        #expect(try await eventually(within: 20) { try await position() >= 11 })
        let (start, startedAt) = (try await position(), ContinuousClock.now)
        #expect(try await eventually(within: 30) { try await position() >= start + 8 })
        let (end, endedAt) = (try await position(), ContinuousClock.now)
        let pace = (end - start) / ((endedAt - startedAt) / .seconds(1))
        #expect(abs(pace - 2) <= 0.2, "the position moved \(end - start) s in \(endedAt - startedAt): a pace of \(pace)")

        // cloudplayerctl: set, and said back.
        #expect(try await rig.ctl("speed", "1.25").status == 0)
        #expect(try await eventually(within: 20) { try await rate() == "d 1.25" })
        #expect(try await rig.ctl("speed").stdout == "1.25×\n")
        #expect(try await rig.ctl("status").stdout.contains("at 1.25×"))
        let refused = try await rig.ctl("speed", "5")
        #expect(refused.status != 0 && refused.stderr.contains("the speed goes from 0.5 to 3"), "\(refused.stderr)")

        // A song outside the source plays at [playback]'s 1; the episode again at its own 1.25.
        #expect(try await rig.ctl("queue", "play", "2").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["title"] as? String == "Vbr Title" })
        #expect(try await rate() == "d 1")
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        let kept = try await eventually(within: 20) { try await rate() == "d 1.25" }
        let shownAgain = try await rate()
        #expect(kept, "kept for the track: \(shownAgain)")
    }
}
