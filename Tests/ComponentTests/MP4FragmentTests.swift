import Decoding
import Foundation
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// Fragmented MP4 (`moof` boxes after the `moov`, as live recorders and DASH/HLS segmenters
/// write it), made by ffmpeg's muxer: it plays equal to ffmpeg's decode, seeks land on their
/// frame (the `moof`s before the target read, not their audio), and a scan says its length is
/// unknown rather than 0 — ffmpeg writes neither an edit list nor a declared length for these.
@Suite struct MP4FragmentTests {
    static let variants = [
        EncodedVariant(name: "frag-one-moof.m4a", arguments: ["-c:a", "aac", "-aac_pns", "0", "-movflags", "+frag_keyframe+empty_moov"], wide: false),
        EncodedVariant(name: "frag-per-second.m4a", arguments: ["-c:a", "aac", "-aac_pns", "0", "-movflags", "+frag_keyframe+empty_moov",
                                                                "-frag_duration", "500000"], wide: false),
        EncodedVariant(name: "frag-first-in-moov.m4a", arguments: ["-c:a", "aac", "-aac_pns", "0", "-movflags", "+frag_keyframe",
                                                                   "-frag_duration", "500000"], wide: false),
        EncodedVariant(name: "alac-frag-base-is-moof.m4a", arguments: ["-c:a", "alac", "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
                                                                       "-frag_duration", "500000"], wide: true),
    ]

    @Test("a fragmented MP4 decodes to ffmpeg's decode, sample for sample, every frame; seeks land on their frame",
          arguments: variants)
    func exactAgainstFFmpeg(_ variant: EncodedVariant) async throws {
        let (file, _) = try await MP4DecoderTests.encode(variant)
        let reference = try await MP4DecoderTests.reference(file, wide: variant.wide)
        let decoder = try DecoderActor.open(try FileByteSource(path: file.path))
        #expect(decoder.info.format == PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: variant.wide ? 24 : 16))
        #expect(decoder.info.totalFrames == nil, "no box states the length")
        let whole = PCMFileDecoderTests.readToEnd(decoder)
        #expect(whole.error == nil)
        #expect(whole.samples.count == reference.count, "every frame, as ffmpeg plays them (no edit list)")
        #expect(firstDifference(whole.samples, reference) == nil)
        let frames = reference.count / 2
        for target in [frames / 3 + 5, frames - 5000, 100] {
            try decoder.seek(toFrame: Int64(target))
            #expect(decoder.position == Int64(target))
            let rest = PCMFileDecoderTests.readToEnd(decoder).samples
            #expect(firstDifference(rest, Array(reference[(target * 2)...])) == nil, "from frame \(target)")
        }

        let bytes = try [UInt8](Data(contentsOf: file))
        let scanned = try await TagReader.read(length: Int64(bytes.count), pictures: false) { Array(bytes[Int($0.lowerBound)..<Int($0.upperBound)]) }
        #expect(scanned.codec == (variant.wide ? .alac : .aac) && scanned.duration == nil)
    }

    @Test("a fragment whose samples run past the file, or a moof cut short, is one clear error after what played")
    func damagedFragment() async throws {
        let (file, _) = try await MP4DecoderTests.encode(Self.variants[1])
        var bytes = try [UInt8](Data(contentsOf: file))
        // The last moof's trun: its first sample's size (after its duration, if the run lists
        // durations) made to run past the end of the file.
        let trun = try #require((0..<(bytes.count - 4)).last { bytes[$0..<($0 + 4)].elementsEqual("trun".utf8) })
        let flags = Int(bytes[trun + 6]) << 8 | Int(bytes[trun + 7])
        try #require(flags & 0x201 == 0x201, "a data offset and sample sizes")
        let size = trun + 16 + (flags & 0x100 != 0 ? 4 : 0)
        bytes.replaceSubrange(size..<(size + 4), with: [0x00, 0x3F, 0xFF, 0xFF])
        let damaged = try Fixtures.shared.scratchDirectory().appendingPathComponent("damaged-fragment.m4a")
        try Data(bytes).write(to: damaged)
        let decoded = PCMFileDecoderTests.readToEnd(try DecoderActor.open(try FileByteSource(path: damaged.path)))
        #expect(decoded.samples.count > 0)
        let error = try #require(decoded.error)
        #expect("\(error)".contains("past the end of the file"), "\(error)")
    }
}
