import Foundation
import Testing
import TestSupport

/// The sound server restarts under a running daemon (issue 14): a package upgrade, a
/// `systemctl --user restart`, a crash. The daemon used to go to Stopped and never play again.
/// Now it holds (Paused, its place kept), reconnects by itself, and plays on from where the
/// listener was if it was playing — checked from what the new server's sink records.
@Suite struct SoundServerRestartTests {
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
          arguments: [true, false])
    func restart(wasPlaying: Bool) async throws {
        let server = PulseTestServer()
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
        #expect(kept >= 3)
        try await Task.sleep(for: .seconds(1.5))  // at least one reconnect attempt, which fails
        #expect(try await playerctl(bus, "status") == "Paused")
        #expect(try await position(bus) == kept, "the position moved while nothing played")

        _ = try await server.serverAddress()
        let sink = try await server.makeSink()
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
        let recording = try await sink.finish()

        // What the new sink played is the track from the kept place on, sample for sample.
        let heard = recording.frames(from: recording.audibleSpan().lowerBound)
        let reference = try await ReferenceDecoder.mpg123(file)
        let resumed = try #require(reference.firstFrame(matching: heard), "the recording is not a stretch of the track")
        let resumedAt = Double(resumed) / Double(reference.sampleRate)
        #expect(abs(resumedAt - kept) <= 0.5, "resumed at \(resumedAt) s, the place kept was \(kept) s")
        let played = min(heard.audibleSpan().upperBound, reference.frameCount - resumed)
        #expect(played >= 2 * reference.sampleRate)
        #expect(heard.frames(from: 0, to: played) == reference.frames(from: resumed, to: resumed + played),
                "not continuous after the resume")
        #expect(daemon.errorSoFar().contains("sound server lost"))
    }
}
