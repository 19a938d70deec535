import Foundation
import Model
import Output
import Playback
import Testing
import TestSupport

/// Pause and volume through a real PulseAudio server, judged by what its null sink recorded.
@Suite(.timeLimit(.minutes(2)))
struct PulseControlTests {
    /// Plays `file` into a fresh sink of the test server, with `control` driving the player
    /// while it plays; returns the sink's recording and the reference decode.
    private func record(_ file: Fixtures.File,
                        control: (Player, EventLog) async throws -> Void) async throws -> (PCMAudio, PCMAudio) {
        let sink = try await PulseTestServer.shared.makeSink()
        let url = try await Fixtures.shared.url(file)
        let device = try await PulseOutput.connect(server: sink.server, sink: sink.name)
        let player = Player.running(output: OutputActor(device: device))
        let log = EventLog(player)
        await player.perform(.add([QueueItem(location: TrackLocation(url: url))], at: .end, play: false))
        try await control(player, log)
        _ = try await log.next("the end") { if case .queueFinished = $0.change { true } else { false } }
        await player.shutdown()
        device.close()
        return (try await sink.finish(), try await ReferenceDecoder.mpg123(url))
    }

    @Test("pause corks the stream: the recording is the track with silence inserted, nothing lost or repeated")
    func pauseAndResume() async throws {
        let (recording, reference) = try await record(.vbrMP3) { player, log in
            await player.perform(.play)
            _ = try await log.trackStarted()
            while (await player.position()?.seconds ?? 0) < 1.5 { try await Task.sleep(for: .milliseconds(50)) }
            await player.perform(.pause)
            let paused = try #require(await player.position())
            try await Task.sleep(for: .seconds(1))
            let stillPaused = try #require(await player.position())
            #expect(abs(stillPaused.seconds - paused.seconds) < 0.05, "the position moved while paused")
            await player.perform(.play)
        }
        let start = try #require(recording.firstFrame(matching: reference))
        let heard = recording.frames(from: start)
        // Take out the silence: what is left is the track, every frame once.
        #expect(heard.droppingSilentFrames() == reference.droppingSilentFrames())
        // And the silence was there, in the middle, for about as long as the pause.
        let gap = heard.longestSilence(within: heard.audibleSpan())
        #expect(gap > 44100 / 2, "longest silence inside the track: \(gap) frames")
    }

    @Test("seek while paused, then play: the new stream is uncorked and plays to the end")
    func seekWhilePausedThenPlay() async throws {
        let (recording, reference) = try await record(.cbrMP3) { player, log in
            await player.perform(.play)
            _ = try await log.trackStarted()
            await player.perform(.pause)
            await player.perform(.seek(to: 3.0))
            await player.perform(.play)
        }
        // What was heard ends with the reference from 3.0 s to its end.
        let tail = reference.frames(from: 3 * 44100)
        let start = try #require(recording.firstFrame(matching: tail), "the part after the seek was never heard")
        let after = recording.frames(from: start)
        #expect(after.droppingSilentFrames() == tail.droppingSilentFrames())
    }

    @Test("volume 0.5 plays the track at half amplitude, for its whole length")
    func volume() async throws {
        let (recording, reference) = try await record(.cbrMP3) { player, _ in
            await player.perform(.setVolume(0.5))
            await player.perform(.play)
        }
        // Silence taken out (a CPU-starved test machine may underrun): the whole track, quieter.
        let heard = recording.droppingSilentFrames()
        #expect(abs(heard.frameCount - reference.frameCount) < 441, "heard \(heard.frameCount) frames of \(reference.frameCount)")
        let ratio = heard.rms / reference.rms
        #expect(abs(ratio - 0.5) < 0.03, "amplitude ratio \(ratio)")
    }
}
