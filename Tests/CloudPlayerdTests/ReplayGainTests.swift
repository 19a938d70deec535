import Foundation
import Testing
import TestSupport

/// ReplayGain (issue 18) through `play --output wav:`: each track comes out as the reference
/// decoder's samples scaled by 10^(gain/20) and rounded to 16 bits, within 1 LSB (no dither),
/// for every mode, with and without clip protection; a gapless pair of one gain stays gapless.
@Suite struct ReplayGainTests {
    private static let mp3Fields = ["REPLAYGAIN_TRACK_GAIN": "-6.00 dB", "REPLAYGAIN_TRACK_PEAK": "0.5",
                                    "REPLAYGAIN_ALBUM_GAIN": "-2.00 dB", "REPLAYGAIN_ALBUM_PEAK": "0.9"]

    private func play(_ files: [URL], _ options: [String]) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)"]
                                                             + options + files.map(\.path))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try PCMAudio(wavFile: output)
    }

    /// What a player that applies `decibels` (limited to `limit` as a factor) makes of `audio`.
    private func scaled(_ audio: PCMAudio, decibels: Double, limit: Double = .infinity) -> PCMAudio {
        let factor = min(pow(10, decibels / 20), limit)
        var result = audio
        result.samples = audio.samples.map { Int16(max(-32768, min(32767, (Double($0) * factor).rounded()))) }
        return result
    }

    private func tagged(_ file: Fixtures.File, _ name: String, in directory: URL? = nil, _ fields: [String: String]) async throws -> URL {
        try await Tagger.copy(try await Fixtures.shared.url(file), to: directory ?? Fixtures.shared.scratchDirectory(),
                              named: name, fields: fields)
    }

    /// One MP3 tagged track −6 dB (peak 0.5), album −2 dB (peak 0.9).
    @Test("MP3: each mode and preamp scales as its tags say; clip protection holds the peak to full scale",
          arguments: [
              (["--replaygain", "off"], 0.0, Double.infinity),
              (["--replaygain", "track"], -6.0, .infinity),
              (["--replaygain", "album"], -2.0, .infinity),
              // Alone, a track is no album run: auto is track gain.
              (["--replaygain", "auto"], -6.0, .infinity),
              (["--replaygain", "track", "--replaygain-preamp", "3"], -3.0, .infinity),
              // +7 dB would push the 0.9 peak past full scale: held to 1/0.9.
              (["--replaygain", "album", "--replaygain-preamp", "9"], 7.0, 1 / 0.9),
              (["--replaygain", "album", "--replaygain-preamp", "9", "--no-replaygain-clip"], 7.0, .infinity),
          ])
    func mp3Modes(_ options: [String], _ decibels: Double, _ limit: Double) async throws {
        let file = try await tagged(.vbrMP3, "gain.mp3", Self.mp3Fields)
        let ours = try await play([file], options)
        let expected = scaled(try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.vbrMP3)), decibels: decibels, limit: limit)
        #expect(ours.frameCount == expected.frameCount)
        #expect(ours.maxDifference(to: expected) <= 1)
        if decibels == 0 { #expect(ours == expected) }
    }

    /// R128 −10 dB toward −23 LUFS is −5 dB toward ReplayGain's level; the header's own output
    /// gain is opusdec's and opusfile's alike, applied once.
    @Test("Opus: R128 gains with 5 dB added, track and album", arguments: [("track", -5.0), ("album", 1.5)])
    func opusR128(_ mode: String, _ decibels: Double) async throws {
        let file = try await tagged(.opus, "gain.opus", ["R128_TRACK_GAIN": "-2560", "R128_ALBUM_GAIN": "-896"])
        let ours = try await play([file], ["--replaygain", mode])
        let expected = scaled(try await ReferenceDecoder.opusdec(try await Fixtures.shared.url(.opus)), decibels: decibels)
        #expect(ours.frameCount == expected.frameCount)
        #expect(ours.maxDifference(to: expected) <= 1)
    }

    @Test("FLAC and Vorbis: REPLAYGAIN_* comments")
    func flacAndVorbis() async throws {
        let fields = ["REPLAYGAIN_TRACK_GAIN": "-3.5 dB", "REPLAYGAIN_TRACK_PEAK": "0.25"]
        let flac = try await play([try await tagged(.flac, "gain.flac", fields)], ["--replaygain", "track"])
        let flacReference = try await ReferenceDecoder.flac(try await Fixtures.shared.url(.flac)).pcm16()
        #expect(flac.frameCount == flacReference.frameCount && flac.maxDifference(to: scaled(flacReference, decibels: -3.5)) <= 1)
        let vorbis = try await play([try await tagged(.vorbis, "gain.ogg", fields)], ["--replaygain", "track"])
        let vorbisReference = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.vorbis))
        #expect(vorbis.frameCount == vorbisReference.frameCount && vorbis.maxDifference(to: scaled(vorbisReference, decibels: -3.5)) <= 1)
    }

    /// 24-bit FLAC stays 24-bit: scaled at its own depth, not cut to 16 bits first.
    @Test("24-bit FLAC: scaled at 24 bits")
    func wideFLAC() async throws {
        let file = try await tagged(.flac24, "gain24.flac", ["REPLAYGAIN_TRACK_GAIN": "-6.00 dB"])
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", "--replaygain", "track", file.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let ours = try WAVFile(output)
        let reference = try await ReferenceDecoder.flac(try await Fixtures.shared.url(.flac24))
        #expect(ours.bitsPerSample == 24)
        let factor = pow(10, -6.0 / 20)
        // `samples24` holds each in the top 24 bits of an Int32: compared at 24 bits.
        let expected = try reference.samples24().map { Int32((Double($0 >> 8) * factor).rounded()) }
        let samples = try ours.samples24().map { $0 >> 8 }
        #expect(samples.count == expected.count)
        let off = zip(samples, expected).enumerated().first { abs($0.element.0 - $0.element.1) > 1 }
        #expect(off == nil, "sample \(off?.offset ?? -1): \(off.map { "\($0.element.0) vs \($0.element.1)" } ?? "")")
    }

    /// Two tracks of one folder are an album run: auto plays both at the album's gain, the join
    /// as gapless as without a gain. In two folders, each plays at its own track gain.
    @Test("auto: album gain for consecutive tracks of one album, track gain otherwise; gapless joins stay exact")
    func autoMode() async throws {
        let album = try Fixtures.shared.scratchDirectory()
        let first = try await tagged(.vbrMP3, "1.mp3", in: album, Self.mp3Fields)
        let second = try await tagged(.secondMP3, "2.mp3", in: album, ["REPLAYGAIN_TRACK_GAIN": "-8.00 dB", "REPLAYGAIN_ALBUM_GAIN": "-2.00 dB"])
        let references = (try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.vbrMP3)),
                          try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.secondMP3)))
        let together = try await play([first, second], ["--replaygain", "auto"])
        let expected = scaled(references.0 + references.1, decibels: -2)
        #expect(together.frameCount == expected.frameCount)
        #expect(together.maxDifference(to: expected) <= 1)

        let apart = try await tagged(.secondMP3, "2.mp3", in: try Fixtures.shared.scratchDirectory(),
                                     ["REPLAYGAIN_TRACK_GAIN": "-8.00 dB", "REPLAYGAIN_ALBUM_GAIN": "-2.00 dB"])
        let mixed = try await play([first, apart], ["--replaygain", "auto"])
        let separately = scaled(references.0, decibels: -6) + scaled(references.1, decibels: -8)
        #expect(mixed.frameCount == separately.frameCount)
        #expect(mixed.maxDifference(to: separately) <= 1)
    }

    @Test("A bad --replaygain value is refused with the modes named")
    func badMode() async throws {
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--replaygain", "loud", "x.mp3"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("off") && result.stderr.contains("album"), "\(result.stderr)")
    }
}
