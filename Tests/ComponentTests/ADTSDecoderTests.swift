import ComponentTestSupport
import Decoding
import Foundation
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// AAC in ADTS (`.aac` files, AAC stations, HLS segments' audio) decodes to ffmpeg's decode of
/// the same bytes, sample for sample: AAC-LC made by ffmpeg, and HE-AAC (implicit SBR) taken out
/// of an MP4 fixture; from a file, and from a stream of unknown length that comes in pieces.
@Suite struct ADTSDecoderTests {
    /// `seconds` of two tones, AAC-LC in ADTS, 44.1 kHz stereo; without noise substitution (PNS),
    /// whose noise a seek would not make again as a decode from the start made it.
    static func makeLC(seconds: Int = 6) async throws -> URL {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("tone.aac")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                                                "-f", "lavfi", "-i", "sine=frequency=660:duration=\(seconds)", "-filter_complex", "[0][1]amerge=inputs=2",
                                                "-ar", "44100", "-c:a", "aac", "-aac_pns", "0", "-b:a", "128k", "-f", "adts", file.path])
        return file
    }

    /// An HE-AAC MP4 fixture's frames in ADTS: SBR found only inside the frames.
    static func makeHE() async throws -> URL {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("he.aac")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", HEAACDecoderTests.url("heaac-implicit-mono-core.m4a").path,
                                                "-c:a", "copy", "-f", "adts", file.path])
        return file
    }

    static func reference(_ file: URL) async throws -> [Int32] {
        let raw = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.raw")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", file.path, "-f", "s16le", raw.path])
        let bytes = try [UInt8](Data(contentsOf: raw))
        return stride(from: 0, to: bytes.count, by: 2).map { Int32(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) }
    }

    @Test("AAC-LC in ADTS decodes to ffmpeg's decode, sample for sample; seeks land on their frame")
    func lowComplexity() async throws {
        let file = try await Self.makeLC()
        let reference = try await Self.reference(file)
        let decoder = try DecoderActor.open(try FileByteSource(path: file.path))
        #expect(decoder.info.codec == .aac)
        #expect(decoder.info.format == PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16))
        let whole = PCMFileDecoderTests.readToEnd(decoder)
        #expect(whole.error == nil)
        #expect(firstDifference(whole.samples, reference) == nil)
        for target: Int64 in [0, 1000, 3 * 44100 + 17, Int64(reference.count / 2) - 5] {
            try decoder.seek(toFrame: target)
            #expect(decoder.position == target)
            #expect(firstDifference(PCMFileDecoderTests.readToEnd(decoder).samples, Array(reference[(Int(target) * 2)...])) == nil, "seek to \(target)")
        }
    }

    @Test("HE-AAC in ADTS plays at SBR's rate, to ffmpeg's decode of the same frames")
    func highEfficiency() async throws {
        let file = try await Self.makeHE()
        let reference = try await Self.reference(file)
        let decoder = try DecoderActor.open(try FileByteSource(path: file.path))
        #expect(decoder.info.format == PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16))
        let whole = PCMFileDecoderTests.readToEnd(decoder)
        #expect(whole.error == nil)
        #expect(firstDifference(whole.samples, reference) == nil)
    }

    @Test("a stream of unknown length that comes a few hundred bytes at a time decodes the same, and says how far it read")
    func unsizedStream() async throws {
        let file = try await Self.makeLC(seconds: 3)
        let reference = try await Self.reference(file)
        let size = try Int64(Data(contentsOf: file).count)
        let decoder = try DecoderActor.open(UnsizedSource(try FileByteSource(path: file.path), most: 300))
        #expect(decoder.info.totalFrames == nil)
        let whole = PCMFileDecoderTests.readToEnd(decoder)
        #expect(whole.error == nil)
        #expect(firstDifference(whole.samples, reference) == nil)
        #expect(decoder.inputPosition == size)
    }

    @Test("junk in the middle of the frames is passed over: the frames after it play")
    func junkMidStream() async throws {
        let file = try await Self.makeLC(seconds: 4)
        var bytes = try [UInt8](Data(contentsOf: file))
        // Cut into the middle of a frame, and put 3000 bytes of noise there (sync patterns among them).
        let cut = bytes.count / 2
        var noise = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        noise[100] = 0xFF
        noise[101] = 0xF1
        bytes.replaceSubrange(cut..<cut + 200, with: noise)
        let damaged = try Fixtures.shared.scratchDirectory().appendingPathComponent("damaged.aac")
        try Data(bytes).write(to: damaged)
        let decoder = try DecoderActor.open(try FileByteSource(path: damaged.path))
        let whole = PCMFileDecoderTests.readToEnd(decoder)
        #expect(whole.error == nil)
        let reference = try await Self.reference(file)
        // What was cut out (200 bytes, at most two frames and the overlap after them) is missing; the rest plays.
        #expect(whole.samples.count >= reference.count - 4 * 1024 * 2)
        #expect(whole.samples.count <= reference.count)
    }

    @Test("a scan of a .aac file says AAC and its length (a bit rate estimate: within 3 %), with or without an ID3v2 tag before its frames")
    func scanned() async throws {
        let file = try await Self.makeLC(seconds: 6)
        let frames = try await Self.reference(file).count / 2
        let plain = try [UInt8](Data(contentsOf: file))
        let tagged = LibraryTree.id3v2(title: "Tagged", artist: "A", album: "B", track: 1) + plain
        for (bytes, title) in [(plain, nil), (tagged, "Tagged")] as [([UInt8], String?)] {
            let scanned = try await TagReader.read(length: Int64(bytes.count)) { Array(bytes[Int($0.lowerBound)..<Int($0.upperBound)]) }
            #expect(scanned.codec == .aac && scanned.tags.title == title)
            let duration = try #require(scanned.duration)
            #expect(abs(duration - Double(frames) / 44100) < 0.03 * Double(frames) / 44100, "\(duration) s for \(frames) frames")
        }
    }
}
