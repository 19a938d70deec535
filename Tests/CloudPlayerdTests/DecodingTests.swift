import Foundation
import Testing
import TestSupport

/// `play --output wav:` against the reference decoders, sample for sample.
@Suite struct DecodingTests {
    private func decode(_ files: [Fixtures.File], extra: [String] = []) async throws -> (PCMAudio, ProcessResult) {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        var arguments = ["play", "--quiet", "--output", "wav:\(output.path)"] + extra
        for file in files { arguments.append(try await Fixtures.shared.url(file).path) }
        let result = try await BuiltProducts.runCloudPlayerd(arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return (try PCMAudio(wavFile: output), result)
    }

    @Test("MP3 equals mpg123 -w sample for sample", arguments: [Fixtures.File.vbrMP3, .cbrMP3, .monoMP3])
    func mp3MatchesMpg123(_ file: Fixtures.File) async throws {
        let (ours, _) = try await decode([file])
        let reference = try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(file))
        #expect(ours.sampleRate == reference.sampleRate)
        #expect(ours.channels == reference.channels)
        #expect(ours.frameCount == reference.frameCount)
        #expect(ours == reference)
    }

    /// Measured: bit-exact against `opusdec --no-dither`; against default `opusdec` (which adds
    /// dither noise) samples differ by up to about a dozen LSB, so the undithered decode is the
    /// reference to hold us to.
    @Test("Opus equals opusdec --rate 48000 --no-dither sample for sample", arguments: [Fixtures.File.opus, .monoOpus])
    func opusMatchesOpusdec(_ file: Fixtures.File) async throws {
        let (ours, _) = try await decode([file])
        let reference = try await ReferenceDecoder.opusdec(try await Fixtures.shared.url(file))
        #expect(ours.sampleRate == 48000)
        #expect(ours.channels == reference.channels)
        #expect(ours.frameCount == reference.frameCount)
        #expect(ours == reference)
    }

    @Test("The format comes from the bytes: Opus named .mp3 plays as Opus")
    func sniffsFromBytes() async throws {
        let (ours, result) = try await decode([.opusNamedMP3])
        #expect(ours == (try await ReferenceDecoder.opusdec(try await Fixtures.shared.url(.opus))))
        #expect(result.stderr.isEmpty)
    }

    @Test("Gapless: A then B is exactly the two reference decodes back to back",
          arguments: [(Fixtures.File.vbrMP3, Fixtures.File.secondMP3), (.cbrMP3, .vbrMP3), (.opus, .secondOpus)])
    func gapless(_ pair: (Fixtures.File, Fixtures.File)) async throws {
        let (ours, _) = try await decode([pair.0, pair.1])
        let first = try await reference(pair.0)
        let second = try await reference(pair.1)
        #expect(ours.frameCount == first.frameCount + second.frameCount)
        #expect(ours == first + second)
    }

    /// MPEG-1 (44.1 kHz) seeks are bit-exact. After a seek in MPEG-2 (22.05 kHz, one granule
    /// per frame) libmpg123's synthesis restarts on the other half of its double buffer, and a
    /// handful of samples round differently: measured 10 of 71,662 samples, each by 1 LSB.
    @Test("--start T is the reference decode from frame round(T·rate) on (MP3)",
          arguments: [(Fixtures.File.cbrMP3, 2.5, 0), (.vbrMP3, 1.2345, 0), (.vbrMP3, 4.0, 0), (.monoMP3, 0.75, 1)])
    func startOffsetMP3(_ item: (Fixtures.File, Double, Int)) async throws {
        let (file, seconds, tolerance) = item
        let (ours, _) = try await decode([file], extra: ["--start", String(seconds)])
        let full = try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(file))
        let expected = full.frames(from: Int((seconds * Double(full.sampleRate)).rounded()))
        #expect(ours.frameCount == expected.frameCount)
        #expect(ours.maxDifference(to: expected) <= tolerance)
        if tolerance == 0 { #expect(ours == expected) }
    }

    /// opusfile seeks by decoding 80 ms of pre-roll, so the decoder state converges on, but does
    /// not start equal to, a straight decode's. Measured at 3.21 s: up to 322 LSB in the first
    /// 10 ms, 27 at 80 ms, at most 1 LSB after 160 ms, identical after 640 ms. The position
    /// itself is exact.
    @Test("--start T on Opus starts at frame round(T·48000) and converges on the reference",
          arguments: [3.21, 0.5])
    func startOffsetOpus(_ seconds: Double) async throws {
        let (ours, _) = try await decode([.opus], extra: ["--start", String(seconds)])
        let full = try await ReferenceDecoder.opusdec(try await Fixtures.shared.url(.opus))
        let expected = full.frames(from: Int((seconds * 48000).rounded()))
        #expect(ours.frameCount == expected.frameCount)
        let settle = 12000  // 250 ms
        #expect(ours.frames(from: settle).maxDifference(to: expected.frames(from: settle)) <= 1)
        let head = ours.frames(from: 0, to: settle), reference = expected.frames(from: 0, to: settle)
        let error = PCMAudio(sampleRate: 48000, channels: 2,
                             samples: zip(head.samples, reference.samples).map { Int16(clamping: Int($0) - Int($1)) })
        #expect(error.rms < 0.05 * reference.rms)
    }

    @Test("--start at or past the end plays nothing of that file, and the next plays whole",
          arguments: [(Fixtures.File.cbrMP3, "600"), (.opus, "600"), (.opus, "6.0")])
    func startPastEnd(_ item: (Fixtures.File, String)) async throws {
        let (ours, result) = try await decode([item.0, item.0], extra: ["--start", item.1])
        #expect(result.stderr.isEmpty)
        #expect(ours == (try await reference(item.0)))
    }

    @Test("WAV: a track of another format is refused alone; the ones around it join gaplessly")
    func wavRefusesOtherFormat() async throws {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let paths = [try await Fixtures.shared.url(.vbrMP3), try await Fixtures.shared.url(.opus),
                     try await Fixtures.shared.url(.secondMP3)]
        let result = try await BuiltProducts.runCloudPlayerd(["play", "-q", "-o", "wav:\(output.path)"] + paths.map(\.path))
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains(paths[1].path) && result.stderr.contains("a WAV file holds one format"))
        let expected = try await reference(.vbrMP3) + reference(.secondMP3)
        #expect(try PCMAudio(wavFile: output) == expected)
    }

    private func reference(_ file: Fixtures.File) async throws -> PCMAudio {
        let url = try await Fixtures.shared.url(file)
        return url.pathExtension == "opus" ? try await ReferenceDecoder.opusdec(url) : try await ReferenceDecoder.mpg123(url)
    }
}
