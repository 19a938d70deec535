import Foundation
import Testing
import TestSupport

/// Speed through the daemon (null output, which plays at a sound card's pace; a private bus): a
/// source's `speed`, MPRIS `Rate` written with busctl and announced, `cloudplayerctl speed`, the
/// position clients extrapolate at the rate as the output plays it, and the speed kept for the track it was chosen on.
@Suite(.timeLimit(.minutes(4))) struct SpeedDaemonTests {
    @Test("a source's speed; Rate written by busctl (announced) and by cloudplayerctl; Position as the output plays it after a seek; kept for the track, not for another source's")
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
        // Listening once it has printed its own NameAcquired (an upper bound that fails, not a wait).
        #expect(try await eventually(within: 20) { monitor.outputSoFar().contains("NameAcquired") || monitor.outputSoFar().contains("member=") })
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

        // After a seek, what clients extrapolate at 2× is what the output has played: read just
        // before a pause, the position is not ahead of where the output says it paused (a
        // timeline counting the stretched stream's frames as the track's would be 1.5 s behind).
        #expect(try await rig.ctl("seek", "10").status == 0)
        #expect(try await eventually(within: 20) { try await position() >= 13 })
        let extrapolated = try await position()
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Paused" })
        let heard = try await position()
        #expect(heard >= extrapolated - 0.3 && heard < extrapolated + 5, "extrapolated \(extrapolated) s, the output paused at \(heard) s")
        #expect(try await rig.ctl("play").status == 0)

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
