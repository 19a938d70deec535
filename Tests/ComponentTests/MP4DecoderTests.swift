import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// AAC and ALAC in MP4, encoded by Debian's ffmpeg, decode to what ffmpeg decodes them to —
/// the same libavcodec — and to exactly the length encoded: the encoder's delay and padding
/// removed as the edit list says, where `ffmpeg -f s16le` keeps the padding up to a whole frame.
@Suite struct MP4DecoderTests {
    typealias Variant = EncodedVariant

    static let variants = [
        Variant(name: "aac-moov-at-end.m4a", arguments: ["-c:a", "aac", "-b:a", "160k", "-aac_pns", "0"], wide: false),
        Variant(name: "aac-faststart.m4a", arguments: ["-c:a", "aac", "-b:a", "160k", "-aac_pns", "0", "-movflags", "+faststart"], wide: false),
        Variant(name: "aac-mono.m4a", arguments: ["-c:a", "aac", "-ac", "1", "-aac_pns", "0"], wide: false),
        Variant(name: "alac16.m4a", arguments: ["-c:a", "alac"], wide: false),
        Variant(name: "alac24.m4a", arguments: ["-c:a", "alac"], wide: true),
        // 5.1 from the stereo source (ffmpeg's upmix): six channels in the track's order.
        Variant(name: "aac-5.1.m4a", arguments: ["-c:a", "aac", "-ac", "6", "-aac_pns", "0"], wide: false),
        Variant(name: "alac-5.1.m4a", arguments: ["-c:a", "alac", "-ac", "6"], wide: false),
    ]

    /// The channels a variant has.
    static func channels(_ variant: Variant) -> Int {
        variant.name.contains("mono") ? 1 : variant.name.contains("5.1") ? 6 : 2
    }

    /// 2 s of noise and a tone (`sox -R`: the same every run), 16- or 24-bit.
    static func source(wide: Bool) async throws -> (url: URL, frames: Int) {
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("source.wav")
        try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", ["-n", "-r", "44100", "-c", "2", "-b", wide ? "24" : "16", url.path,
                                                                             "synth", "2", "pinknoise", "sine", "440", "gain", "-n", "-3"]))
        return (url, 88200)
    }

    static func encode(_ variant: Variant) async throws -> (url: URL, frames: Int) {
        let (source, frames) = try await source(wide: variant.wide)
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent(variant.name)
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", source.path, "-map_metadata", "-1",
                                                "-fflags", "+bitexact"] + variant.arguments + [url.path])
        return (url, frames)
    }

    /// ffmpeg's decode of `file`: 16-bit, or the top 24 bits of its 32-bit output.
    static func reference(_ file: URL, wide: Bool) async throws -> [Int32] {
        let raw = try Fixtures.shared.scratchDirectory().appendingPathComponent("reference.raw")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", file.path, "-f", wide ? "s32le" : "s16le", raw.path])
        let bytes = try [UInt8](Data(contentsOf: raw))
        if wide {
            return stride(from: 0, to: bytes.count, by: 4).map {
                Int32(bitPattern: UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2]) << 16 | UInt32(bytes[$0 + 3]) << 24) >> 8
            }
        }
        return stride(from: 0, to: bytes.count, by: 2).map { Int32(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) }
    }

    @Test("each variant decodes to ffmpeg's decode, sample for sample, to exactly the frames encoded; a seek lands on its frame",
          arguments: variants)
    func exactAgainstFFmpeg(_ variant: Variant) async throws {
        let (file, frames) = try await Self.encode(variant)
        let reference = try await Self.reference(file, wide: variant.wide)
        let decoder = try DecoderActor.open(try FileByteSource(path: file.path))
        let channels = Self.channels(variant)
        #expect(decoder.info.codec == (variant.name.hasPrefix("aac") ? .aac : .alac))
        #expect(decoder.info.format == PCMFormat(sampleRate: 44100, channels: channels, bitsPerSample: variant.wide ? 24 : 16))
        #expect(decoder.info.totalFrames == Int64(frames))
        let whole = PCMFileDecoderTests.readToEnd(decoder)
        #expect(whole.error == nil)
        #expect(whole.samples.count == frames * channels, "the encoded length exactly")
        #expect(reference.count >= whole.samples.count)
        #expect(firstDifference(whole.samples, Array(reference.prefix(whole.samples.count))) == nil)
        for target in [Int64(frames / 3) + 5, 0, Int64(frames) - 100] {
            try decoder.seek(toFrame: target)
            let rest = PCMFileDecoderTests.readToEnd(decoder).samples
            #expect(firstDifference(rest, Array(reference[(Int(target) * channels)..<(frames * channels)])) == nil, "from frame \(target)")
        }
    }
}
