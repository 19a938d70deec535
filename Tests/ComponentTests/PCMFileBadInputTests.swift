import Decoding
import Foundation
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// WAV and AIFF files that lie or are damaged: every frame there is plays and one clear line
/// says what was wrong; a header that cannot be read is one clear error, never a hang.
@Suite struct PCMFileBadInputTests {
    /// sox's 16-bit WAV (or AIFF) of the test source, changed by `change`, in a file of its own.
    private func changed(_ name: String, _ change: (inout [UInt8]) throws -> Void) async throws -> URL {
        let variant = try #require(PCMFileDecoderTests.variants.first { $0.name == name })
        var bytes = try [UInt8](Data(contentsOf: try await PCMFileDecoderTests.write(variant)))
        try change(&bytes)
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("changed-" + name)
        try Data(bytes).write(to: url)
        return url
    }

    private func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    /// Where a chunk's size field is.
    private func sizeField(of id: String, in bytes: [UInt8]) throws -> Range<Int> {
        let found = try #require(bytes.firstRange(of: Array(id.utf8)))
        return found.upperBound..<(found.upperBound + 4)
    }

    @Test("a WAV data size of 0xFFFFFFFF, or one larger than the file: every frame there plays, then one line says so",
          arguments: [UInt32.max, 10_000_000])
    func dataSizeBeyondTheFile(_ stated: UInt32) async throws {
        let url = try await changed("s16.wav") { bytes in
            bytes.replaceSubrange(try sizeField(of: "data", in: bytes), with: littleEndian(stated))
        }
        let decoded = PCMFileDecoderTests.readToEnd(try DecoderActor.open(try FileByteSource(path: url.path)))
        let variant = try #require(PCMFileDecoderTests.variants.first { $0.name == "s16.wav" })
        #expect(firstDifference(decoded.samples, try await PCMFileDecoderTests.reference(try await PCMFileDecoderTests.write(variant), wide: false)) == nil)
        let message = "\(decoded.error.map { "\($0)" } ?? "no error")"
        #expect(message.contains(stated == UInt32.max ? "does not state the audio's size" : "truncated"), "\(message)")
    }

    @Test("headers that cannot be played are one clear error each", arguments: [
        "an AIFF rate of zero", "an AIFF rate of 44100.5", "a chunk of 4 GiB in a 4 KiB file", "compressed WAV (MS ADPCM)",
        "a header cut short", "a chunk header cut short",
    ])
    func badHeaders(_ case: String) async throws {
        let url: URL
        let expected: String
        switch `case` {
        case "an AIFF rate of zero", "an AIFF rate of 44100.5":
            url = try await changed("s16.aiff") { bytes in
                let rate = try sizeField(of: "COMM", in: bytes).upperBound + 8
                // 44100.5 = 0xAC448 × 2^-4: a mantissa with bits below the binary point.
                let value: [UInt8] = `case`.hasSuffix("zero") ? Array(repeating: 0, count: 10) : [0x40, 0x0E, 0xAC, 0x44, 0x80, 0, 0, 0, 0, 0]
                bytes.replaceSubrange(rate..<(rate + 10), with: value)
            }
            expected = "sample rate"
        case "a chunk of 4 GiB in a 4 KiB file":
            var bytes = Array("RIFF".utf8) + littleEndian(4088) + Array("WAVE".utf8) + Array("JUNK".utf8) + littleEndian(0xFFFF_FFF0)
            bytes += [UInt8](repeating: 0, count: 4096 - bytes.count)
            url = try Fixtures.shared.scratchDirectory().appendingPathComponent("huge-chunk.wav")
            try Data(bytes).write(to: url)
            expected = "no fmt chunk"
        case "compressed WAV (MS ADPCM)":
            url = try Fixtures.shared.scratchDirectory().appendingPathComponent("adpcm.wav")
            try await PCMFileDecoderTests.sox([try await PCMFileDecoderTests.source().path, "-e", "ms-adpcm", url.path])
            expected = "WAV format 0x2"
        case "a header cut short":
            url = try await changed("s16.wav") { $0.removeSubrange(30...) }
            expected = "ends inside"
        default:
            url = try await changed("s16.wav") { $0.removeSubrange(14...) }
            expected = "no fmt chunk"
        }
        let error = #expect(throws: DecoderError.self) { _ = try DecoderActor.open(try FileByteSource(path: url.path)) }
        #expect(error.map { "\($0)" }?.contains(expected) == true, "\(String(describing: error))")
    }

    static let coverAfterTheAudio = [UInt8](repeating: 0xAB, count: 2 * 1024 * 1024)

    /// `wav` with a RIFF INFO list and an ID3v2 chunk holding a 2 MB cover appended after its
    /// audio, as taggers append them, and its RIFF size set to match.
    static func taggedAfterTheAudio(_ wav: [UInt8]) -> Data {
        func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + littleEndian(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
        }
        var bytes = wav
        let info = chunk("IART", Array("Info Artist\0".utf8)) + chunk("IGNR", Array("Field Recording\0".utf8))
            + chunk("ICRD", Array("2019-05-01\0".utf8)) + chunk("INAM", Array("Info Title\0".utf8))
        bytes += chunk("LIST", Array("INFO".utf8) + info)
        bytes += chunk("id3 ", LibraryTree.id3v2(title: "ID3 Title", artist: "ID3 Artist", album: "ID3 Album", track: 7,
                                                 cover: coverAfterTheAudio))
        bytes.replaceSubrange(4..<8, with: littleEndian(UInt32(bytes.count - 8)))
        return Data(bytes)
    }

    /// A WAV with its tags after the audio, as taggers append them: a RIFF INFO list and an
    /// ID3v2 chunk holding a 2 MB cover. The scan reads the head, the chunk headers after the
    /// audio, the INFO list and the ID3 tag's frames — stepping over the cover by its size.
    @Test("tags from a WAV's INFO list and ID3 chunk; a scan fetches at most 70 KiB though the ID3 chunk holds a 2 MB cover")
    func tagsWithinTheScanBudget() async throws {
        let variant = try #require(PCMFileDecoderTests.variants.first { $0.name == "s16.wav" })
        let plain = try [UInt8](Data(contentsOf: try await PCMFileDecoderTests.write(variant)))
        let frames = (plain.count - 44) / 4
        let bytes = Self.taggedAfterTheAudio(plain)
        let cover = Self.coverAfterTheAudio
        var fetched = 0
        let scanned = try await TagReader.read(length: Int64(bytes.count), pictures: false) { range in
            fetched += range.count
            return Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        #expect(fetched <= 70 * 1024, "\(fetched) bytes")
        #expect(scanned.codec == .wav)
        #expect(scanned.duration == Double(frames) / 44100)
        #expect(scanned.tags.title == "ID3 Title" && scanned.tags.artist == "ID3 Artist" && scanned.tags.album == "ID3 Album")
        #expect(scanned.tags.trackNumber == 7)
        #expect(scanned.tags.genre == "Field Recording" && scanned.tags.year == 2019, "what only INFO says fills in")
        #expect(scanned.tags.artwork == nil, "pictures are skipped in a scan")
        let withPictures = try await TagReader.read(length: Int64(bytes.count), pictures: true) { range in
            Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        #expect(withPictures.tags.artwork?.data.count == cover.count)
    }
}
