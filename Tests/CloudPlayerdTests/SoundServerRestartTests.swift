import Foundation
import Testing
import TestSupport

/// The sound server restarts under a running daemon (issue 14): a package upgrade, a
/// `systemctl --user restart`, a crash. The daemon used to go to Stopped and never play again.
/// Now it holds (Paused, its place kept), reconnects by itself, and plays on from where the
/// listener was if it was playing — checked from what the new server's sink records.
// One case at a time: each starts sound servers of its own, and side by side on two cores
// they starved each other into dropouts no listener would meet.
@Suite(.serialized) struct SoundServerRestartTests {
    private static let mpris = "org.mpris.MediaPlayer2.cloudplayerd"

    private func playerctl(_ bus: DBusTestBus, _ arguments: String...) async throws -> String {
        try await bus.run("playerctl", ["-p", "cloudplayerd"] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Reads until `accept` is true (a bounded number of tries); the last value read.
    private func poll(_ read: () async throws -> String, until accept: (String) -> Bool) async throws -> String {
        var last = ""
        for _ in 0..<600 {
            last = try await read()
            if accept(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    private func position(_ bus: DBusTestBus) async throws -> Double {
        Double(try await playerctl(bus, "position")) ?? -1
    }

    @Test("A sound server restart: Paused with the place kept while it is away, then on from that place — by itself if it was playing, on Play if it was paused",
          arguments: PulseTestServer.Kind.allCases, [true, false])
    func restart(kind: PulseTestServer.Kind, wasPlaying: Bool) async throws {
        let server = PulseTestServer(kind)
        let address = try await server.serverAddress()
        // The daemon follows the default sink (no name given): the only one, then its successor.
        let firstSink = try await server.makeSink()
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "pulse", "--log-level", "notice"],
                                      environment: bus.environment.merging(["PULSE_SERVER": address,
                                                                            "XDG_CACHE_HOME": try Fixtures.shared.scratchDirectory().path]) { $1 })
        defer { daemon.signal(SIGTERM) }
        #expect(try await bus.waitForName(Self.mpris))
        let file = try await Fixtures.shared.url(.longMP3)  // 60 s
        _ = try await playerctl(bus, "open", file.absoluteString)
        #expect(try await poll({ try await playerctl(bus, "status") }, until: { $0 == "Playing" }) == "Playing")
        _ = try await poll({ try await playerctl(bus, "position") }, until: { (Double($0) ?? 0) >= 3 })
        if !wasPlaying {
            _ = try await playerctl(bus, "pause")
            #expect(try await poll({ try await playerctl(bus, "status") }, until: { $0 == "Paused" }) == "Paused")
        }

        await server.stop()
        _ = try? await firstSink.finish()
        #expect(try await poll({ try await playerctl(bus, "status") }, until: { $0 == "Paused" }) == "Paused",
                "daemon log: \(daemon.errorSoFar())")
        let kept = try await position(bus)
        // Paused, the place is what the output heard, which may lie a few ms behind the
        // interpolated 3 s seen before (2.999 on PipeWire once): kept, not reset.
        #expect(kept >= 2.95)
        try await Task.sleep(for: .seconds(1.5))  // at least one reconnect attempt, which fails
        #expect(try await playerctl(bus, "status") == "Paused")
        #expect(try await position(bus) == kept, "the position moved while nothing played")

        _ = try await server.serverAddress()
        // The server answers a while before it has a sink (PipeWire names a default sink that
        // does not exist meanwhile, `auto_null`): not back yet, nothing may play into nowhere.
        try await Task.sleep(for: .seconds(2))
        let sinkMade = ContinuousClock.now
        let sink = try await server.makeSink()
        // A playing daemon may resume on the new sink before its recorder runs (starting parec
        // took 0.65 s once in CI): that much of the resumed sound cannot be in the recording.
        let unrecorded = (ContinuousClock.now - sinkMade) / .seconds(1)
        if wasPlaying {
            #expect(try await poll({ try await playerctl(bus, "status") }, until: { $0 == "Playing" }) == "Playing",
                    "daemon log: \(daemon.errorSoFar())")
        } else {
            // Back, and still paused: it waits for Play.
            _ = try await poll({ daemon.errorSoFar() }, until: { $0.contains("sound server is back") })
            #expect(try await playerctl(bus, "status") == "Paused")
            _ = try await playerctl(bus, "play")
            #expect(try await poll({ try await playerctl(bus, "status") }, until: { $0 == "Playing" }) == "Playing")
        }
        _ = try await poll({ try await playerctl(bus, "position") }, until: { (Double($0) ?? 0) >= kept + 3 })
        // Paused (a cut, no fade), the sink falls silent and its recording ends: otherwise it would
        // wait for the rest of the minute-long track.
        _ = try await playerctl(bus, "pause")
        #expect(try await poll({ try await playerctl(bus, "status") }, until: { $0 == "Paused" }) == "Paused")
        let recording = try await sink.finish()

        // What the new sink played is the track from the kept place on, sample for sample.
        let heard = recording.frames(from: recording.audibleSpan().lowerBound)
        let reference = try await ReferenceDecoder.mpg123(file)
        let resumed = try #require(reference.firstFrame(matching: heard), "the recording is not a stretch of the track")
        let resumedAt = Double(resumed) / Double(reference.sampleRate)
        #expect(resumedAt >= kept - 0.5 && resumedAt <= kept + 0.5 + (wasPlaying ? unrecorded : 0),
                "resumed at \(resumedAt) s, the place kept was \(kept) s; the recorder started \(unrecorded) s after the sink")
        let played = min(heard.audibleSpan().upperBound, reference.frameCount - resumed)
        #expect(played >= 2 * reference.sampleRate)
        let gaps = try heard.frames(from: 0, to: played).gaps(against: reference.frames(from: resumed, to: resumed + played))
        #expect(gaps.longestLoss <= kind.dropoutBound, "not continuous after the resume: \(gaps)")
        #expect(daemon.errorSoFar().contains("sound server lost"))
    }

    @Test("`play` waits for a restarting sound server mid-track, says so, and plays on from where it was when it is back",
          arguments: PulseTestServer.Kind.allCases)
    func playWaits(kind: PulseTestServer.Kind) async throws {
        let server = PulseTestServer(kind)
        let address = try await server.serverAddress()
        let firstSink = try await server.makeSink()
        let file = try await Fixtures.shared.url(.longMP3)  // 60 s; stopped once it plays on
        let player = try ChildProcess(BuiltProducts.cloudplayerd, ["play", "--no-mpris", file.path],
                                      environment: ["PULSE_SERVER": address])
        defer { player.signal(SIGTERM) }
        try await firstSink.waitForAudio(seconds: 2)
        await server.stop()
        _ = try? await firstSink.finish()
        let complaint = try await poll({ player.errorSoFar() }, until: { $0.contains("waiting for it to come back") })
        #expect(complaint.contains("waiting for it to come back"), "stderr: \(complaint)")
        _ = try await server.serverAddress()
        let sink = try await server.makeSink()
        let said = try await poll({ player.outputSoFar() }, until: { $0.contains("The sound server is back") })
        #expect(said.contains("The sound server is back"), "stdout: \(said)")
        try await sink.waitForAudio(seconds: 2)
        player.signal(SIGTERM)
        let result = await player.wait()
        let recording = try await sink.finish()
        #expect(result.status == 0 || result.status == 143, "stderr: \(result.stderr)")
        // On from about where it was (2 s and a bit in), not from the start.
        let heard = recording.frames(from: recording.audibleSpan().lowerBound)
        let reference = try await ReferenceDecoder.mpg123(file)
        let resumed = try #require(reference.firstFrame(matching: heard.frames(from: 4410)), "the recording is not a stretch of the track")
        #expect(Double(resumed) / Double(reference.sampleRate) > 1.5)
    }
}
