import Decoding
import Foundation
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// WAV and AIFF, written by sox in every sample format a user meets, decode to exactly what
/// `sox -D` converts them to: 8- and 16-bit files as 16 bits, the rest as 24 bits.
@Suite struct PCMFileDecoderTests {
    typealias Variant = EncodedVariant

    static let variants = [
        Variant(name: "u8.wav", arguments: ["-b", "8", "-e", "unsigned"], wide: false),
        Variant(name: "s16.wav", arguments: ["-b", "16", "-e", "signed"], wide: false),
        Variant(name: "s24.wav", arguments: ["-b", "24", "-e", "signed"], wide: true),
        Variant(name: "s32.wav", arguments: ["-b", "32", "-e", "signed"], wide: true),
        Variant(name: "f32.wav", arguments: ["-b", "32", "-e", "floating-point"], wide: true),
        Variant(name: "f64.wav", arguments: ["-b", "64", "-e", "floating-point"], wide: true),
        Variant(name: "six.wav", arguments: ["-b", "16", "-e", "signed", "-c", "6"], wide: false),
        Variant(name: "s16.aiff", arguments: ["-b", "16", "-e", "signed"], wide: false),
        Variant(name: "s24.aiff", arguments: ["-b", "24", "-e", "signed"], wide: true),
        Variant(name: "s8.aiff", arguments: ["-b", "8", "-e", "signed"], wide: false),
        Variant(name: "f32.aifc", arguments: ["-b", "32", "-e", "floating-point"], wide: true),
        Variant(name: "s16.aifc", arguments: ["-b", "16", "-e", "signed"], wide: false),
    ]

    /// Pink noise at full scale and a tone: every bit of every sample in use. The same noise
    /// every time (`sox -R`), so every file written from it holds the same audio.
    static func source() async throws -> URL {
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("source.wav")
        try await sox(["-n", "-r", "44100", "-c", "2", "-b", "24", url.path, "synth", "2", "pinknoise", "sine", "440", "gain", "-n", "-0.1"])
        return url
    }

    static func sox(_ arguments: [String]) async throws {
        try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", arguments))
    }

    static func write(_ variant: Variant) async throws -> URL {
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent(variant.name)
        let type = variant.name.hasSuffix(".aifc") ? ["-t", "aifc"] : []
        try await sox([try await source().path] + variant.arguments + type + [url.path])
        return url
    }

    /// What `sox -D` makes of `file` at the player's depth, as the decoder's samples.
    static func reference(_ file: URL, wide: Bool) async throws -> [Int32] {
        let raw = try Fixtures.shared.scratchDirectory().appendingPathComponent("reference.raw")
        try await sox(["-D", file.path, "-t", "raw", "-e", "signed", "-b", wide ? "24" : "16", "-L", raw.path])
        let bytes = try [UInt8](Data(contentsOf: raw))
        if !wide { return stride(from: 0, to: bytes.count, by: 2).map { Int32(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) } }
        return stride(from: 0, to: bytes.count, by: 3).map {
            Int32(bitPattern: UInt32(bytes[$0]) << 8 | UInt32(bytes[$0 + 1]) << 16 | UInt32(bytes[$0 + 2]) << 24) >> 8
        }
    }

    /// Every sample from where the decoder is to the end, widened to `Int32`; and the error it
    /// ended with, if any.
    static func readToEnd(_ decoder: any AudioDecoder) -> (samples: [Int32], error: (any Error)?) {
        var samples: [Int32] = []
        do {
            while true {
                switch try decoder.read(maxFrames: 7_000) {
                case .int16(let part) where !part.isEmpty: samples += part.map(Int32.init)
                case .int32(let part) where !part.isEmpty: samples += part
                default: return (samples, nil)
                }
            }
        } catch {
            return (samples, error)
        }
    }

    @Test("each variant decodes to sox's conversion of it, sample for sample, and a seek lands on the frame asked",
          arguments: variants)
    func exactAgainstSox(_ variant: Variant) async throws {
        let file = try await Self.write(variant)
        let reference = try await Self.reference(file, wide: variant.wide)
        let decoder = try DecoderActor.open(try FileByteSource(path: file.path))
        let channels = variant.name.hasPrefix("six") ? 6 : 2
        #expect(decoder.info.format == PCMFormat(sampleRate: 44100, channels: channels, bitsPerSample: variant.wide ? 24 : 16))
        #expect(decoder.info.codec == (variant.name.hasSuffix(".wav") ? .wav : .aiff))
        #expect(decoder.info.totalFrames == Int64(reference.count / channels))
        let whole = Self.readToEnd(decoder)
        #expect(whole.error == nil)
        #expect(firstDifference(whole.samples, reference) == nil)
        let middle = Int64(reference.count / channels / 3) + 7
        try decoder.seek(toFrame: middle)
        #expect(firstDifference(Self.readToEnd(decoder).samples, Array(reference[(Int(middle) * channels)...])) == nil)
    }

    /// AIFF-C `sowt` (16-bit little-endian, what macOS writes) is not written by sox: made from
    /// its `NONE` file by swapping the sample bytes and naming the type.
    @Test("AIFF-C sowt plays as its big-endian twin")
    func sowt() async throws {
        let twin = try await Self.write(Self.variants.first { $0.name == "s16.aifc" }!)
        var bytes = try [UInt8](Data(contentsOf: twin))
        let type = try #require(bytes.firstRange(of: Array("NONE".utf8)))
        bytes.replaceSubrange(type, with: Array("sowt".utf8))
        let sound = try #require(bytes.firstRange(of: Array("SSND".utf8))).upperBound + 12
        for index in stride(from: sound, to: bytes.count - 1, by: 2) { bytes.swapAt(index, index + 1) }
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("sowt.aifc")
        try Data(bytes).write(to: url)
        let decoded = Self.readToEnd(try DecoderActor.open(try FileByteSource(path: url.path)))
        #expect(decoded.error == nil)
        #expect(firstDifference(decoded.samples, try await Self.reference(twin, wide: false)) == nil)
    }
}

/// Where two sample arrays first differ, or nil if they are equal — for a failure that says
/// where, at once (Swift Testing's diff of two long arrays takes minutes).
func firstDifference(_ ours: [Int32], _ reference: [Int32]) -> String? {
    if let index = ours.indices.first(where: { $0 < reference.count && ours[$0] != reference[$0] }) {
        return "sample \(index) is \(ours[index]), the reference's \(reference[index]) (of \(ours.count) and \(reference.count))"
    }
    return ours.count == reference.count ? nil : "\(ours.count) samples, the reference \(reference.count)"
}

/// One way of writing the test audio: a file name (its suffix says the container), the encoder's
/// arguments (sox's or ffmpeg's), and whether it plays at 24 bits.
struct EncodedVariant: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    let wide: Bool
    var testDescription: String { name }
}
