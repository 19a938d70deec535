import ComponentTestSupport
import Decoding
import Foundation
import FuzzTargets
import Parsers
import Testing

/// What an MP3 length header may claim is bounded by the bytes that carry it, for the player and
/// for the library alike (`MPEGLengthHeader.maxSamplesPerByte`).
@Suite struct MP3DecoderLimitsTests {
    /// Found by fuzzing (bench/hardening in CI): a forged Xing frame count made a 1.9 KB file
    /// 766,374,842,927 frames long, and one seek to its middle took libmpg123 41 s.
    static func forgedFile() throws -> [UInt8] {
        let file = FuzzCorpusTests.corpus.appendingPathComponent("decode/crash-forged-xing-length-slow-seek.mp3")
        return try #require(FileManager.default.contents(atPath: file.path).map(Array.init))
    }

    @Test("a forged Xing frame count: the decoder claims no length, and a seek far past the end stops at what the bytes can hold")
    func forgedLengthInDecoder() throws {
        let bytes = try Self.forgedFile()
        let decoder = try DecoderActor.open(MemoryByteSource(bytes))
        #expect(decoder.info.codec == .mp3)
        #expect(decoder.info.totalFrames == nil, "claimed \(decoder.info.totalFrames ?? 0) frames in \(bytes.count) bytes")
        try? decoder.seek(toFrame: 36_000_000_000)
        #expect(decoder.position <= MPEGLengthHeader.maxSamples(inBytes: Int64(bytes.count)))
    }

    @Test("a forged Xing frame count: the library's duration is the bitrate estimate, not the header's year")
    func forgedLengthInLibrary() async throws {
        let bytes = try Self.forgedFile()
        let scanned = try await VirtualFile(bytes).read()
        let duration = try #require(scanned.duration)
        // At most this many seconds, even at the lowest MPEG sample rate (8 kHz).
        #expect(duration <= Double(MPEGLengthHeader.maxSamples(inBytes: Int64(bytes.count))) / 8000)
    }
}
