import Foundation
import Testing
import TestSupport

/// `cloudplayerd play` into a private sound server's null sink, recorded from its monitor: PulseAudio
/// and PipeWire (its PulseAudio server), as desktops run one or the other.
@Suite struct PulsePlaybackTests {
    @Test("What the sound server plays is the reference decode, bit for bit, gapless across two tracks",
          arguments: PulseTestServer.Kind.allCases)
    func playsExactly(server: PulseTestServer.Kind) async throws {
        let sink = try await PulseTestServer.shared(server).makeSink()
        let first = try await Fixtures.shared.url(.vbrMP3)
        let second = try await Fixtures.shared.url(.secondMP3)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", first.path, second.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let head = try await ReferenceDecoder.mpg123(first)
        let reference = try await head + ReferenceDecoder.mpg123(second)
        // Bit for bit, but for the server's own dropouts; no silence between the tracks beyond
        // the server's own; after it, nothing but silence: no frame played twice. (Silences
        // that lose nothing elsewhere are a starved machine's timing, not the sound: under the
        // suite and stress-ng, PipeWire's stream waited up to 5120 frames mid-track.)
        let gaps = try recording.gaps(against: reference)
        #expect(gaps.longestWait(near: head.frameCount, within: 4096) <= server.dropoutBound && gaps.longestLoss <= server.dropoutBound, "\(gaps)")
    }

    @Test("FLAC, then Ogg Vorbis: what the sound server plays is `flac -d` and `oggdec`, bit for bit, one after the other",
          arguments: PulseTestServer.Kind.allCases)
    func flacAndVorbisExactly(server: PulseTestServer.Kind) async throws {
        let sink = try await PulseTestServer.shared(server).makeSink()
        let flac = try await Fixtures.shared.url(.flac)
        let vorbis = try await Fixtures.shared.url(.vorbis)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", flac.path, vorbis.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let first = try await ReferenceDecoder.flac(flac).pcm16()
        let reference = first + (try await ReferenceDecoder.oggdec(vorbis))
        let gaps = try recording.gaps(against: reference)
        // Every frame of both, one stream for both (the same format), nothing lost and, where
        // one track joins the next, no wait but the server's own: none through PulseAudio;
        // through PipeWire a starved graph's missed cycle, a quantum or two — as it does to
        // `pacat` with its buffer full. A wait of ours (the stream run dry while the next
        // decoder opens) would last until we wrote again.
        #expect(gaps.longestWait(near: first.frameCount, within: 4096) <= server.dropoutBound
                    && gaps.longestLoss <= server.dropoutBound, "\(gaps)")
    }

    @Test("A server slower than the music: playback pauses for the bytes and goes on; nothing lost, nothing repeated, no early end",
          arguments: PulseTestServer.Kind.allCases)
    func slowServerThroughPulse(server: PulseTestServer.Kind) async throws {
        let rig = try await StreamingRig([.vbrMP3])
        let origin = try rig.origin(.vbrMP3)
        rig.proxy.setRate(bytesPerSecond: origin.count / 10)  // ten seconds of download for six of music
        let sink = try await PulseTestServer.shared(server).makeSink()
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", try rig.configFile(),
                                                              "--output", "pulse:\(sink.name)", rig.url(.vbrMP3).absoluteString],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Buffering vbr.mp3"))
        let reference = try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.vbrMP3))
        let gaps = try recording.gaps(against: reference)
        #expect(gaps.longestLoss <= server.dropoutBound, "\(gaps)")
    }

    @Test("A format change (44.1 kHz MP3, then 48 kHz Opus) reopens the stream and plays both",
          arguments: PulseTestServer.Kind.allCases)
    func formatChange(server: PulseTestServer.Kind) async throws {
        let sink = try await PulseTestServer.shared(server).makeSink()
        let mp3 = try await Fixtures.shared.url(.cbrMP3)
        let opus = try await Fixtures.shared.url(.secondOpus)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", mp3.path, opus.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Playing").count == 3)
        let first = try await ReferenceDecoder.mpg123(mp3)
        let start = try #require(recording.firstFrame(matching: first))
        // Where the MP3's last frames are heard: a wait of the server's in it (PipeWire's 8192
        // frames, seen in CI) moves its end later than its length says.
        let tail = first.frames(from: first.frameCount - 1024)
        let end = try #require(recording.frames(from: start).firstFrame(matching: tail, probeFrames: 1024), "the MP3's end is not heard")
            + start + 1024
        let gaps = try recording.frames(from: 0, to: end).gaps(against: first)
        #expect(gaps.longestLoss <= server.dropoutBound, "\(gaps)")
        // The Opus track is resampled by the server to the sink's 44.1 kHz: check its length.
        let second = try await ReferenceDecoder.opusdec(opus)
        let rest = recording.frames(from: end)
        let heard = rest.audibleSpan()
        let expected = Double(second.frameCount) * 44100 / 48000
        #expect(abs(Double(heard.count) - expected) < 0.01 * expected, "heard \(heard.count) frames, expected \(expected)")
    }

    /// PulseAudio converts through 32-bit float between the S24_32 stream and an S32 sink, so a
    /// sample may land a fraction of a 24-bit step off; a 16-bit stream would lose 8 bits.
    @Test("24-bit FLAC reaches PulseAudio with all 24 bits (S24_32LE stream into an S32 sink)")
    func twentyFourBitFLAC() async throws {
        let sink = try await PulseTestServer.shared.makeSink(sampleRate: 96000, channels: 2, format: "s32le")
        let file = try await Fixtures.shared.url(.flac24)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", file.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finishWide()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let reference = try await ReferenceDecoder.flac(file).samples24()
        let start = try #require(recording.indices.first { index in
            index % 2 == 0 && recording.count - index >= reference.count
                && (0..<64).allSatisfy { abs(Int(recording[index + $0]) - Int(reference[$0])) <= 256 }
        }, "the recording never contains the track's start")
        let heard = recording[start..<(start + reference.count)]
        let largest = zip(heard, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 256, "largest difference \(largest), in S32 units (256 = one 24-bit step)")
        // The low 8 of the 24 bits came through: not a 16-bit stream.
        #expect(heard.filter { ($0 >> 8) & 0xFF != 0 }.count > heard.count / 2)
    }

    /// An S32LE stream into an S32 sink at full volume is not converted: every bit arrives.
    @Test("32-bit FLAC reaches PulseAudio bit for bit (S32LE stream into an S32 sink)")
    func thirtyTwoBitFLAC() async throws {
        let sink = try await PulseTestServer.shared.makeSink(sampleRate: 44100, channels: 2, format: "s32le")
        let file = try await Fixtures.shared.url(.thirtyTwoBitFLAC)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", file.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finishWide()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let reference = try await ReferenceDecoder.flac(file).samples32()
        let start = try #require(recording.indices.first { index in
            index % 2 == 0 && recording.count - index >= reference.count && recording[index..<(index + 64)] == reference[0..<64]
        }, "the recording never contains the track's start")
        #expect(Array(recording[start..<(start + reference.count)]) == reference)
    }

    /// The sink is named in WAVE order; were the stream's map PulseAudio's default (AIFF's order
    /// for six channels), the server would move the channels about on the way in.
    @Test("5.1 reaches PulseAudio in place: a Vorbis file's six channels land on the sink's FL FR FC LFE RL RR as decoded")
    func surroundChannelMap() async throws {
        let sink = try await PulseTestServer.shared.makeSink(sampleRate: 48000, channels: 6,
                                                             channelMap: "front-left,front-right,front-center,lfe,rear-left,rear-right")
        let file = try await Fixtures.shared.url(.surroundVorbis)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", file.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        _ = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", file.path])
        let decoded = try WAVFile(output).pcm16()
        let start = try #require(recording.firstFrame(matching: decoded), "the recording never contains the track's start")
        #expect(recording.frames(from: start, to: start + decoded.frameCount) == decoded)
    }

    @Test("A chained Vorbis file whose second link is 22.05 kHz mono: the stream reopens mid-track and both links play")
    func chainedFormatChange() async throws {
        let sink = try await PulseTestServer.shared.makeSink()
        let file = try await Fixtures.shared.url(.mixedChainVorbis)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--output", "pulse:\(sink.name)", file.path],
                                                             environment: ["PULSE_SERVER": sink.server])
        let recording = try await sink.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Playing").count == 2, "one announcement: \(result.stdout)")
        let first = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.vorbis))
        let start = try #require(recording.firstFrame(matching: first))
        #expect(recording.frames(from: start, to: start + first.frameCount) == first)
        // The mono link is resampled and upmixed by the server: check how long it is heard.
        let second = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.monoVorbis))
        let heard = recording.frames(from: start + first.frameCount).audibleSpan()
        let expected = Double(second.frameCount) * 44100 / 22050
        #expect(abs(Double(heard.count) - expected) < 0.01 * expected, "heard \(heard.count) frames, expected \(expected)")
    }
}
