@testable import CloudPlayerCore
import Foundation
import Testing

/// What an MP3 header may claim is bounded by the bytes that carry it.
@Suite struct MP3DecoderLimitsTests {
    /// Found by fuzzing (bench/hardening in CI): a forged Xing frame count made the track hours
    /// long, and one seek to its middle took libmpg123 40 s of skipping past the end.
    @Test("a forged Xing frame count: no length is claimed, and a seek far past the end stops at what the bytes can hold")
    func forgedLength() throws {
        let file = FuzzCorpusTests.corpus.appendingPathComponent("decode/crash-forged-xing-length-slow-seek.mp3")
        let bytes = try #require(FileManager.default.contents(atPath: file.path).map(Array.init))
        let decoder = try DecoderActor.open(MemoryByteSource(bytes))
        #expect(decoder.info.codec == .mp3)
        #expect(decoder.info.totalFrames == nil, "claimed \(decoder.info.totalFrames ?? 0) frames in \(bytes.count) bytes")
        try? decoder.seek(toFrame: 36_000_000_000)
        #expect(decoder.position <= Int64(bytes.count) * 48)
    }
}
