import Foundation
import Testing
import TestSupport

/// A laptop that sleeps under a playing daemon (issue 14): on waking, the sound server goes on
/// from where it stopped, and the connections that died in the meantime are noticed within the
/// read timeout and resumed from the last byte. Shown by freezing the servers themselves
/// (SIGSTOP, then SIGCONT) and by dropping the connection under a player.
// One case at a time: each starts sound servers of its own, and side by side on two cores
// they starved each other into dropouts no listener would meet.
@Suite(.serialized) struct SleepAndWakeTests {
    /// Runs `cloudplayerd play` of `file` into a new sink of `server`, calls `interrupt` once the
    /// player is under way, and returns the recording and what `play` printed.
    private func play(_ arguments: [String], into server: PulseTestServer,
                      interrupt: (ChildProcess, TestSink) async throws -> Void) async throws -> (PCMAudio, ProcessResult) {
        let sink = try await server.makeSink()
        let player = try ChildProcess(BuiltProducts.cloudplayerd,
                                      ["play", "--no-mpris", "--output", "pulse:\(sink.name)"] + arguments,
                                      environment: ["PULSE_SERVER": sink.server])
        try await interrupt(player, sink)
        let result = await player.wait()
        return (try await sink.finish(), result)
    }

    /// Waits until `condition` holds, a bounded number of times.
    private func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<600 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// PulseAudio only: PipeWire thawed loses audio of its own (its graph catching up — 128 frames
    /// with pacat alone, up to 0.7 s beside other tests), which no client can keep; open in issue 14.
    @Test("The sound server frozen for 2 s mid-track (a laptop's sleep): playback goes on where it was, nothing skipped or repeated",
          arguments: [PulseTestServer.Kind.pulseaudio])
    func soundServerFrozen(kind: PulseTestServer.Kind) async throws {
        // A server of its own: the run-wide one stays unfrozen for the tests beside this one.
        let server = PulseTestServer(kind)
        defer { Task { await server.stop() } }
        let file = try await Fixtures.shared.url(.vbrMP3)  // 6 s
        // The run's length cannot show the freeze (7.0 s, not 8, for this 6 s track and a 2 s
        // freeze: a thawed null sink renders some of the time it missed at once), so that it
        // reached the server's processes is checked instead.
        let (recording, result) = try await play([file.path], into: server) { _, sink in
            try await sink.waitForAudio(seconds: 2)
            #expect(await server.freeze(true) > 0, "the freeze reached no process of the server")
            try await Task.sleep(for: .seconds(2))
            await server.freeze(false)
        }
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let reference = try await ReferenceDecoder.mpg123(file)
        // The freeze is a wait, not a loss: what the server held when it stopped, it plays on.
        let gaps = try recording.gaps(against: reference)
        #expect(gaps.totalLoss == 0, "\(gaps)")
    }

    @Test("The connection dropped under a playing daemon: the download resumes from the last byte and the track plays to its end")
    func connectionDropped() async throws {
        let rig = try await StreamingRig([.vbrMP3])
        let origin = try rig.origin(.vbrMP3)
        // Slower than the music: the download is under way while it plays.
        rig.proxy.setRate(bytesPerSecond: origin.count / 8)
        rig.proxy.inject(.reset(afterBytes: 40_000))
        let (recording, result) = try await play(["--log-level", "notice", "--config", try rig.configFile(readTimeout: 1),
                                                  rig.url(.vbrMP3).absoluteString], into: PulseTestServer.shared) { _, _ in }
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("resuming"), "no interruption was noticed: \(result.stderr)")
        // Resumed from the last byte: no two requests for the same bytes.
        let ranges = rig.proxy.log.filter { $0.method == "GET" }.compactMap { $0.range }
        #expect(Set(ranges).count == ranges.count, "\(ranges)")
        let reference = try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.vbrMP3))
        let gaps = try recording.gaps(against: reference)
        #expect(gaps.longestLoss == 0, "\(gaps)")
    }

    @Test("The HTTP server frozen under a playing daemon until its requests time out, and on: they are made again, the download resumes when it thaws, and the track plays to its end")
    func httpServerFrozen() async throws {
        let rig = try await StreamingRig([.longMP3])
        let origin = try rig.origin(.longMP3)
        // Thirty seconds of download for sixty of music: under way when the server freezes.
        rig.proxy.setRate(bytesPerSecond: origin.count / 30)
        // Retries enough for the freeze: a server silent for good is given up on after them.
        let config = try rig.configFile(readTimeout: 1, retries: 12)
        let (recording, result) = try await play(["--log-level", "notice", "--config", config, rig.url(.longMP3).absoluteString],
                                                 into: PulseTestServer.shared) { player, sink in
            try await sink.waitForAudio(seconds: 1)
            rig.server.freeze(true)
            // Frozen until the loader noticed (what the loopback's buffers held is played
            // first), and two read timeouts more.
            try await waitFor { player.errorSoFar().contains("resuming") }
            try await Task.sleep(for: .seconds(2))
            rig.server.freeze(false)
        }
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("resuming"), "no timeout was noticed: \(result.stderr)")
        let reference = try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.longMP3))
        let gaps = try recording.gaps(against: reference)
        #expect(gaps.longestLoss == 0, "\(gaps)")
    }
}
