import Foundation
import Testing
import TestSupport

/// `cloudplayerd play` into a private PulseAudio server's null sink, recorded from its monitor.
@Suite struct PulsePlaybackTests {
    @Test("What PulseAudio plays is the reference decode, bit for bit, gapless across two tracks")
    func playsExactly() async throws {
        let sink = try await PulseTestServer.shared.makeSink()
        let first = try await Fixtures.shared.url(.vbrMP3)
        let second = try await Fixtures.shared.url(.secondMP3)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", first.path, second.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let reference = try await ReferenceDecoder.mpg123(first) + ReferenceDecoder.mpg123(second)
        let start = try #require(recording.firstFrame(matching: reference), "the recording never contains the track's start")
        #expect(recording.frames(from: start, to: start + reference.frameCount) == reference)
        // Nothing but silence after it: no frame was played twice.
        #expect(recording.frames(from: start + reference.frameCount).rms == 0)
    }

    @Test("A server slower than the music: playback pauses for the bytes and goes on; nothing lost, nothing repeated, no early end")
    func slowServerThroughPulse() async throws {
        let rig = try await StreamingRig([.vbrMP3])
        let origin = try rig.origin(.vbrMP3)
        rig.proxy.setRate(bytesPerSecond: origin.count / 10)  // ten seconds of download for six of music
        let sink = try await PulseTestServer.shared.makeSink()
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", try rig.configFile(),
                                                              "--output", "pulse:\(sink.name)", rig.url(.vbrMP3).absoluteString],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Buffering vbr.mp3"))
        let reference = try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.vbrMP3))
        #expect(recording.droppingSilentFrames() == reference.droppingSilentFrames())
    }

    @Test("A format change (44.1 kHz MP3, then 48 kHz Opus) reopens the stream and plays both")
    func formatChange() async throws {
        let sink = try await PulseTestServer.shared.makeSink()
        let mp3 = try await Fixtures.shared.url(.cbrMP3)
        let opus = try await Fixtures.shared.url(.secondOpus)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", mp3.path, opus.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Playing").count == 3)
        let first = try await ReferenceDecoder.mpg123(mp3)
        let start = try #require(recording.firstFrame(matching: first))
        #expect(recording.frames(from: start, to: start + first.frameCount) == first)
        // The Opus track is resampled by the server to the sink's 44.1 kHz: check its length.
        let second = try await ReferenceDecoder.opusdec(opus)
        let rest = recording.frames(from: start + first.frameCount)
        let heard = rest.audibleSpan()
        let expected = Double(second.frameCount) * 44100 / 48000
        #expect(abs(Double(heard.count) - expected) < 0.01 * expected, "heard \(heard.count) frames, expected \(expected)")
    }
}
