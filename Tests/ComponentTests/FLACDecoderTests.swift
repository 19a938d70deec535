import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// The FLAC decoder itself, beyond what `play` shows: a whole decode checks STREAMINFO's MD5,
/// and a seek after the end (libFLAC finished) starts it again.
@Suite struct FLACDecoderTests {
    private func open(_ file: Fixtures.File) async throws -> any AudioDecoder {
        try DecoderActor.open(try FileByteSource(path: try await Fixtures.shared.url(file).path))
    }

    /// Every sample to the end, as raw little-endian bytes at the file's depth (as `flac -d` writes).
    private func readToEnd(_ decoder: any AudioDecoder) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            switch try decoder.read(maxFrames: 10_000) {
            case .int16(let samples) where !samples.isEmpty: bytes += samples.withUnsafeBytes { Array($0) }
            case .int32(let samples) where !samples.isEmpty:
                for value in samples { bytes += [0, 8, 16].map { UInt8(truncatingIfNeeded: value >> $0) } }
            default: return bytes
            }
        }
    }

    @Test("decoded to the end, then sought back: the samples from there are flac -d's", arguments: [Fixtures.File.flac, .flac24])
    func seekAfterTheEnd(_ file: Fixtures.File) async throws {
        let decoder = try await open(file)
        let reference = try await ReferenceDecoder.flac(try await Fixtures.shared.url(file))
        #expect(try readToEnd(decoder) == reference.data)
        let middle = Int64(reference.frameCount / 3)
        try decoder.seek(toFrame: middle)
        #expect(decoder.position == middle)
        #expect(try readToEnd(decoder) == reference.frames(from: Int(middle)).data)
    }

    /// A sample changed where no frame CRC sees it is only caught by STREAMINFO's MD5: the
    /// decode plays, then ends with an error that says so.
    @Test("a wrong MD5 in STREAMINFO: every sample plays, then one error naming the checksum")
    func md5Mismatch() async throws {
        var bytes = try [UInt8](Data(contentsOf: try await Fixtures.shared.url(.flac)))
        bytes[8 + 18] ^= 0xFF  // the first byte of STREAMINFO's MD5
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("md5.flac")
        try Data(bytes).write(to: url)
        let decoder = try DecoderActor.open(try FileByteSource(path: url.path))
        var frames = 0
        let error = #expect(throws: DecoderError.self) {
            while true {
                let samples = try decoder.read(maxFrames: 10_000)
                if samples.isEmpty { break }
                frames += samples.count / 2
            }
        }
        #expect(error?.description.contains("MD5") == true, "\(String(describing: error))")
        #expect(frames == (try await ReferenceDecoder.flac(try await Fixtures.shared.url(.flac))).frameCount)
    }
}
