import Decoding
import Foundation
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// An AAC file without an edit list that says its gaps in iTunes' `iTunSMPB` item (as older
/// iTunes and some taggers' rewrites leave them): the encoder's delay skipped as FFmpeg skips it,
/// and — where FFmpeg keeps it — the padding dropped too, so the file plays and scans at exactly
/// the length encoded.
@Suite struct MP4GaplessTests {
    /// The 2 s test source as AAC without an edit list, tagged (by mutagen) with `smpb` if given.
    static func file(smpb: String?) async throws -> (url: URL, frames: Int) {
        let variant = EncodedVariant(name: "no-editlist.m4a", arguments: ["-c:a", "aac", "-b:a", "160k", "-aac_pns", "0",
                                                                          "-use_editlist", "0"], wide: false)
        let (url, frames) = try await MP4DecoderTests.encode(variant)
        if let smpb {
            let script = """
                import sys
                from mutagen.mp4 import MP4, MP4FreeForm
                audio = MP4(sys.argv[1])
                audio["----:com.apple.iTunes:iTunSMPB"] = [MP4FreeForm(sys.argv[2].encode())]
                audio.save()
                """
            try await ChildProcess.check("python3", ["-c", script, url.path, smpb])
        }
        return (url, frames)
    }

    /// iTunSMPB as iTunes writes it: twelve words, a space before each.
    static func smpb(priming: Int, padding: Int, samples: Int) -> String {
        let words = [0, priming, padding].map { String($0, radix: 16, uppercase: true) }.map { String(repeating: "0", count: 8 - $0.count) + $0 }
        let count = String(samples, radix: 16, uppercase: true)
        return " " + (words + [String(repeating: "0", count: 16 - count.count) + count] + Array(repeating: "00000000", count: 8))
            .joined(separator: " ")
    }

    @Test("iTunSMPB without an edit list: the delay skipped as ffmpeg skips it, the padding dropped; scanned at the same length")
    func iTunSMPB() async throws {
        let priming = 1024
        let (url, frames) = try await Self.file(smpb: Self.smpb(priming: priming, padding: 88 * 1024 - priming - 88200, samples: 88200))
        let reference = try await MP4DecoderTests.reference(url, wide: false)  // ffmpeg: the delay skipped, the padding kept
        let decoder = try DecoderActor.open(try FileByteSource(path: url.path))
        #expect(decoder.info.totalFrames == Int64(frames))
        let decoded = PCMFileDecoderTests.readToEnd(decoder)
        #expect(decoded.error == nil && decoded.samples.count == frames * 2)
        #expect(reference.count > decoded.samples.count, "ffmpeg keeps the padding")
        #expect(firstDifference(decoded.samples, Array(reference.prefix(decoded.samples.count))) == nil)

        let bytes = try [UInt8](Data(contentsOf: url))
        let scanned = try await TagReader.read(length: Int64(bytes.count), pictures: false) { Array(bytes[Int($0.lowerBound)..<Int($0.upperBound)]) }
        #expect(scanned.duration == Double(frames) / 44100)
    }

    @Test("neither an edit list nor iTunSMPB: the samples play for as long as their durations say, as ffmpeg plays them")
    func noGapInformation() async throws {
        let (url, frames) = try await Self.file(smpb: nil)
        let reference = try await MP4DecoderTests.reference(url, wide: false)
        let decoded = PCMFileDecoderTests.readToEnd(try DecoderActor.open(try FileByteSource(path: url.path)))
        // ffmpeg writes the delay of 1024 frames, and a last sample that lasts only as long as the
        // audio does (its padding left out); ffmpeg's decode plays that sample whole.
        #expect(decoded.samples.count == (1024 + frames) * 2 && reference.count > decoded.samples.count)
        #expect(firstDifference(decoded.samples, Array(reference.prefix(decoded.samples.count))) == nil)
    }

    @Test("iTunSMPB's text: twelve words with or without leading spaces; an implausible delay or too few words are none")
    func parse() {
        #expect(ITunesGapless(" 00000000 00000840 000001CA 00000000003F31F6 00000000") == .some(ITunesGapless(priming: 0x840, padding: 0x1CA, samples: 0x3F31F6)))
        #expect(ITunesGapless("00000000 00000840 000001CA 00000000003F31F6") != nil)
        #expect(ITunesGapless(" 00000000 00004000 000001CA 00000000003F31F6") == nil, "a delay of 16384 or more")
        #expect(ITunesGapless(" 00000000 00000840 000001CA") == nil)
        #expect(ITunesGapless(" 00000000 0000084G 000001CA 00000000003F31F6") == nil)
        #expect(ITunesGapless(priming: 1024, padding: 0, samples: 1_000_000).heard(total: 90112) == (1024, 89088))
    }
}
