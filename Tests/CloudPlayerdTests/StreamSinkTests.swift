import Foundation
import Testing
import TestSupport

/// Streams as a listener hears them: `cloudplayerd play` of an internet-radio station or of an
/// HLS playlist into a null sink of the private PulseAudio (44.1 kHz s16le stereo, the streams'
/// own format, so the server passes the samples through unresampled), recorded from its monitor
/// with `parec`, is the reference decode of what the server sent, sample for sample: nothing
/// lost, nothing repeated, nothing else mixed in — the ICY metadata blocks taken out of the
/// audio, Ogg links and HLS segments joined without a seam. (Silence where the player waited
/// for bytes or for the sound server moves no sample; it is timing, not sound.)
@Suite(.timeLimit(.minutes(4))) struct StreamSinkTests {
    /// The sound server whose null sink never drops a frame (`dropoutBound` 0): a recording equal
    /// to the reference means the player's samples, not the server's luck.
    private static let server = PulseTestServer.Kind.pulseaudio

    /// `cloudplayerd play` of `url` into a new null sink (its cache in a folder of its own), until
    /// the sink has played `seconds` of audio; then stopped with SIGTERM. Returns the recording.
    private func record(_ url: URL, seconds: Double) async throws -> PCMAudio {
        let sink = try await PulseTestServer.shared(Self.server).makeSink()
        let cache = try Fixtures.shared.scratchDirectory()
        let player = try ChildProcess(BuiltProducts.cloudplayerd, ["play", "--no-mpris", "--output", "pulse:\(sink.name)", url.absoluteString],
                                      environment: ["PULSE_SERVER": sink.server, "XDG_CACHE_HOME": cache.path])
        defer { player.signal(SIGTERM) }
        try await sink.waitForAudio(seconds: seconds)
        player.signal(SIGTERM)
        let ended = await player.wait()
        #expect(ended.status == 0 && !ended.killedBySignal, "\(ended.ending)")
        return try await sink.finish()
    }

    @Test("an MP3 station (the ICY test station, metadata blocks every 16000 bytes) is heard as mpg123 decodes the bytes it sent, sample for sample over 6 s")
    func mp3Station() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        let station = try await ICYStreamServer(file: file, options: .asFastAsPossible(titles: [
            .init(at: 0, "Artist A - Song One"), .init(at: 48_000, "Artist B - Song Two"),
        ]))
        let recording = try await record(station.url, seconds: 7)
        // What the station sent: the file from its first byte, with blocks in it (asked for).
        let requests = try station.requests()
        #expect(!requests.isEmpty && requests.allSatisfy { $0.start == 0 && $0.header("Icy-MetaData") == "1" }, "\(requests)")
        let reference = try await ReferenceDecoder.mpg123(file)
        let gaps = try recording.gaps(againstOpening: reference, frames: 6 * 44100)
        #expect(gaps.longestLoss <= Self.server.dropoutBound, "\(gaps)")
    }

    @Test("an Ogg Vorbis station (three chained links of 5 s) is heard as oggdec decodes the bytes it sent, across a link, sample for sample over 8 s")
    func vorbisStation() async throws {
        let file = try await RadioFixtures.shared.vorbisChain()
        let station = try await ICYStreamServer(file: file, options: .asFastAsPossible(contentType: "application/ogg"))
        let recording = try await record(station.url, seconds: 9)
        #expect(try station.requests().allSatisfy { $0.start == 0 })
        let reference = try await ReferenceDecoder.oggdec(file)
        let gaps = try recording.gaps(againstOpening: reference, frames: 8 * 44100)
        #expect(gaps.longestLoss <= Self.server.dropoutBound, "\(gaps)")
    }

    @Test("an HLS VOD set is heard as ffmpeg decodes its files, sample for sample, every segment, to its end: MPEG-TS with AAC, and packed audio (ADTS after each segment's ID3 tag)",
          arguments: [HLSFixtures.Kind.tsAAC, .packedAudio])
    func hlsVOD(_ kind: HLSFixtures.Kind) async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(kind, on: server)
        let sink = try await PulseTestServer.shared(Self.server).makeSink()
        let cache = try Fixtures.shared.scratchDirectory()
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--output", "pulse:\(sink.name)", set.playlistURL.absoluteString],
                                                             environment: ["PULSE_SERVER": sink.server, "XDG_CACHE_HOME": cache.path])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // All of it, and after its end nothing but silence.
        let gaps = try recording.gaps(against: set.reference)
        #expect(gaps.longestLoss <= Self.server.dropoutBound, "\(gaps)")
    }
}
