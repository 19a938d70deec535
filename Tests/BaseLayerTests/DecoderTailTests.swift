import Decoding
import Foundation
import Model
import TestSupport
import Testing

/// Everything decoded before an error is played (issue 14): the last packet before a read error
/// used to be dropped with the error — a damaged file lost up to 0.7 s of the audio it had.
@Suite struct DecoderTailTests {
    /// A remote file whose download broke at `failAt` for good (the loader's error after its
    /// retries gave up): its head came and its tail was fetched before (the library scan reads
    /// it), the bytes from `failAt` to the tail never come. A read stops at the break; one that
    /// starts in the gap throws.
    private final class BreakingSource: ByteSource, @unchecked Sendable {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "connection lost" }
        }

        private let bytes: [UInt8]
        private let gap: Range<Int>

        init(_ bytes: [UInt8], failAt: Int) {
            self.bytes = bytes
            gap = failAt..<max(failAt, bytes.count - 128 * 1024)
        }

        var length: Int64? { Int64(bytes.count) }

        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
            let start = Int(offset)
            guard start < bytes.count, !buffer.isEmpty else { return 0 }
            if gap.contains(start) { throw Broken() }
            let end = min(start + buffer.count, bytes.count, start < gap.lowerBound ? gap.lowerBound : bytes.count)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: end - start) }
            return end - start
        }
    }

    /// Every sample the decoder gives before it throws, and what it threw.
    private func decodeUntilError(_ source: any ByteSource) throws -> (samples: [Int16], error: (any Error)?) {
        let decoder = try DecoderActor.open(source)
        var samples: [Int16] = []
        // The player's packet sizes: 4096 frames first, then doubling (DecoderActor.decode).
        var size = DecoderActor.firstPacketFrames
        do {
            while true {
                let packet = try decoder.read(maxFrames: size)
                if packet.isEmpty { return (samples, nil) }
                samples += try #require(packet.int16)
                size = min(size * 2, DecoderActor.packetFrames)
            }
        } catch {
            return (samples, error)
        }
    }

    /// The first sample where the two differ, for the message (not two million numbers).
    private func firstDifference(_ a: [Int16], _ b: [Int16]) -> Int? {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    }

    /// The reference decode of the bytes before the break: what the reference player writes for
    /// a file that ends there.
    private func referenceOfPrefix(_ bytes: [UInt8], _ count: Int, name: String,
                                   decode: (URL) async throws -> PCMAudio) async throws -> PCMAudio {
        let prefix = try Fixtures.shared.scratchDirectory().appendingPathComponent(name)
        try Data(bytes.prefix(count)).write(to: prefix)
        return try await decode(prefix)
    }

    @Test("A read error mid-file: every sample decoded before it comes out, equal to the reference decoder's output for the bytes before the break (mpg123 -w, opusdec)",
          arguments: [Fixtures.File.longMP3, .longOpus], [0.3, 0.7])
    func tailBeforeError(_ file: Fixtures.File, _ fraction: Double) async throws {
        let bytes = [UInt8](try Data(contentsOf: try await Fixtures.shared.url(file)))
        let failAt = Int(Double(bytes.count) * fraction)
        let (samples, error) = try decodeUntilError(BreakingSource(bytes, failAt: failAt))
        #expect("\(try #require(error))".contains("connection lost"))
        let reference = try await referenceOfPrefix(bytes, failAt, name: "prefix-\(file.rawValue)") { prefix in
            file == .longOpus ? try await ReferenceDecoder.opusdec(prefix) : try await ReferenceDecoder.mpg123(prefix)
        }
        #expect(samples.count / 2 == reference.frameCount)
        #expect(samples == reference.samples, "first difference at sample \(firstDifference(samples, reference.samples) ?? -1)")
    }
}
