import Foundation
import Testing
import TestSupport

/// Clients at the edges of MPRIS: followers, a flooding client, Quit and a second instance.
extension MPRISTests {
    @Test("playerctl --follow and a GDBus client both see each change as it happens")
    func followers() async throws {
        let (bus, daemon) = try await startDaemon()
        let follow = try ChildProcess("playerctl", ["-p", "cloudplayerd", "--follow", "metadata", "--format", "{{status}} {{title}}"],
                                      environment: bus.environment)
        let monitor = try ChildProcess("gdbus", ["monitor", "--address", bus.address, "--dest", Self.name,
                                                 "--object-path", Self.path], environment: bus.environment)
        // Both subscribed before anything changes: playerctl prints the player's state as it
        // starts following; gdbus names the owner once its match rule is in place (it asks after
        // subscribing, on the same connection).
        _ = try await eventually("subscribed") {
            !follow.outputSoFar().isEmpty && monitor.outputSoFar().contains("is owned by") ? "subscribed" : ""
        }
        try await loopTrack(bus)
        _ = try await playerctl(bus, "open", try await Fixtures.shared.url(.vbrMP3).absoluteString)
        _ = try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") }
        _ = try await playerctl(bus, "pause")
        _ = try await eventually("Paused") { try await playerctl(bus, "status") }
        var followed = ""
        for _ in 0..<400 where !followed.contains("Paused Vbr Title") {
            followed = follow.outputSoFar()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(followed.contains("Playing Vbr Title"))
        #expect(followed.contains("Paused Vbr Title"))
        follow.signal(SIGTERM)
        _ = await follow.wait()
        _ = try await eventually("seen") { monitor.outputSoFar().contains("'PlaybackStatus': <'Paused'>") ? "seen" : "" }
        monitor.signal(SIGTERM)
        let seen = await monitor.wait().stdout
        #expect(seen.contains("'PlaybackStatus': <'Playing'>"))
        #expect(seen.contains("'PlaybackStatus': <'Paused'>"))
        #expect(seen.contains("'xesam:title': <'Vbr Title'>"))
        await stop(daemon, bus)
    }

    @Test("a client hammering the bus (thousands of calls) is answered every time, and play goes on")
    func flood() async throws {
        let (bus, daemon) = try await startPlaying(.vbrMP3)
        let hammer = try await bus.run(BuiltProducts.busbench, ["--address", bus.address, "--count", "3000"])
        #expect(hammer.status == 0, "stderr: \(hammer.stderr)")
        #expect(hammer.stdout.contains("get-position") && hammer.stdout.contains("play-pause"))
        // 3000 PlayPause calls, an even number: playing again, and still the same track.
        #expect(try await eventually("Playing") { try await playerctl(bus, "status") } == "Playing")
        #expect(try await playerctl(bus, "metadata", "title") == "Vbr Title")
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        await bus.stop()
    }

    @Test("Quit ends the daemon and releases the name; a second instance gets its own name")
    func quitAndInstances() async throws {
        let (bus, first) = try await startDaemon()
        let second = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--instance", "two"],
                                      environment: bus.environment)
        #expect(try await bus.waitForName(Self.name + ".instancetwo"))
        // The plain name is taken: a third daemon says so and exits 2.
        let third = try await bus.run(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"])
        #expect(third.status == 2)
        #expect(third.stderr.contains("already taken"))

        _ = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, Self.path, "org.mpris.MediaPlayer2", "Quit"])
        let result = await first.wait()
        #expect(result.status == 0)
        #expect(try await bus.waitForName(Self.name, present: false))
        second.signal(SIGTERM)
        #expect(await second.wait().status == 0)
        await bus.stop()
    }
}
