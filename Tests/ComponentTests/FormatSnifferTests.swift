import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Formats are recognised from bytes alone.
@Suite struct FormatSnifferTests {
    private func sniff(_ bytes: [UInt8]) throws -> FormatSniffer.Format {
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("probe")
        try Data(bytes).write(to: url)
        return try FormatSniffer.sniff(try FileByteSource(path: url.path))
    }

    private func sniffError(_ bytes: [UInt8]) -> DecoderError? {
        do {
            _ = try sniff(bytes)
            return nil
        } catch {
            return error as? DecoderError
        }
    }

    @Test("real files: MP3 with and without ID3v2, Opus, FLAC, Vorbis")
    func realFiles() async throws {
        for (file, expected) in [(Fixtures.File.vbrMP3, FormatSniffer.Format.mp3(exactLength: true)),
                                 (.cbrMP3, .mp3(exactLength: true)), (.opus, .opus), (.opusNamedMP3, .opus),
                                 (.flac, .flac(ogg: false)), (.flac24, .flac(ogg: false)), (.vorbis, .vorbis),
                                 (.oggFLAC, .flac(ogg: true)), (.id3FLAC, .flac(ogg: false))] {
            let url = try await Fixtures.shared.url(file)
            #expect(try FormatSniffer.sniff(try FileByteSource(path: url.path)) == expected, "\(file)")
        }
    }

    @Test("signatures of formats we name but do not play")
    func unsupported() {
        #expect(sniffError(Array("OggS".utf8) + [UInt8](repeating: 0, count: 24) + Array("Speex   ".utf8))
                == .unsupportedFormat("Ogg stream that is not Opus, Vorbis or FLAC"))
    }

    @Test("WAV (RIFF, RF64), AIFF (AIFF, AIFF-C) and MP4 from their signatures")
    func pcmFileSignatures() throws {
        for (kind, form, codec) in [("RIFF", "WAVE", AudioCodec.wav), ("RF64", "WAVE", .wav), ("FORM", "AIFF", .aiff), ("FORM", "AIFC", .aiff)] {
            #expect(try sniff(Array(kind.utf8) + [0, 0, 0, 0] + Array(form.utf8) + [UInt8](repeating: 0, count: 100)) == .pcmFile(codec))
        }
        #expect(try sniff([0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0, count: 100)) == .mp4)
    }

    @Test("FLAC (native, after an ID3v2 tag, in Ogg) and Vorbis from their signatures, not Opus's")
    func flacAndVorbisSignatures() throws {
        #expect(try sniff(Array("fLaC".utf8) + [UInt8](repeating: 0, count: 100)) == .flac(ogg: false))
        // An ID3v2.4 tag of 20 bytes, then the FLAC stream.
        let id3 = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20)
        #expect(try sniff(id3 + Array("fLaC".utf8) + [UInt8](repeating: 0, count: 100)) == .flac(ogg: false))
        let page = Array("OggS".utf8) + [UInt8](repeating: 0, count: 24)
        #expect(try sniff(page + [1] + Array("vorbis".utf8) + [UInt8](repeating: 0, count: 30)) == .vorbis)
        #expect(try sniff(page + [0x7F] + Array("FLAC".utf8) + [UInt8](repeating: 0, count: 30)) == .flac(ogg: true))
        #expect(try sniff(page + Array("OpusHead".utf8) + [UInt8](repeating: 0, count: 30)) == .opus)
    }

    @Test("empty, noise and text are not audio")
    func notAudio() {
        #expect(sniffError([]) == .empty)
        for seed in UInt64(1)...20 {
            #expect(sniffError(Fixtures.noise(count: 70_000, seed: seed)) == .notAudio, "seed \(seed)")
        }
        #expect(sniffError(Array(String(repeating: "lorem ipsum ", count: 1000).utf8)) == .notAudio)
    }

    @Test("one stray frame header is not MPEG audio; three consecutive frames are")
    func frameRuns() throws {
        // MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames.
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]
        let frame = header + [UInt8](repeating: 0x55, count: 413)
        #expect(sniffError(frame + Fixtures.noise(count: 5000, seed: 3)) == .notAudio)
        #expect(try sniff(frame + frame + frame + Fixtures.noise(count: 100, seed: 3)) == .mp3(exactLength: false))
        // A file too short for three frames is MPEG audio if its frames end exactly where it does.
        #expect(try sniff(frame + frame) == .mp3(exactLength: false))
        #expect(sniffError(frame + frame + Array(repeating: 0x20, count: 10)) == .notAudio)
        // A tag in front is skipped by its declared size.
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 1, 0] + [UInt8](repeating: 0, count: 128)
        #expect(try sniff(tag + frame + frame + frame) == .mp3(exactLength: false))
    }
}
