import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// MP4 files that are damaged, lie, or hold nothing playable: one clear error each, at open or
/// after every frame there is — never a crash or a hang.
@Suite struct MP4BadInputTests {
    /// ffmpeg's AAC file (moov at the end, or first), changed by `change`.
    private func changed(faststart: Bool = false, _ change: (inout [UInt8]) throws -> Void) async throws -> URL {
        let variant = try #require(MP4DecoderTests.variants.first { $0.name == (faststart ? "aac-faststart.m4a" : "aac-moov-at-end.m4a") })
        var bytes = try [UInt8](Data(contentsOf: try await MP4DecoderTests.encode(variant).url))
        try change(&bytes)
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent("changed.m4a")
        try Data(bytes).write(to: url)
        return url
    }

    /// Where a box's type is (its size field is the 4 bytes before it).
    private func box(_ type: String, in bytes: [UInt8]) throws -> Int {
        try #require(bytes.firstRange(of: Array(type.utf8))).lowerBound
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    private func openError(_ url: URL) -> String {
        do {
            let decoder = try DecoderActor.open(try FileByteSource(path: url.path))
            return PCMFileDecoderTests.readToEnd(decoder).error.map { "\($0)" } ?? "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("bad MP4 files are one clear error each", arguments: [
        "a moov cut short", "a box of 4 GiB in a 4 KiB file", "stsz and stts that disagree", "chunk offsets past the end",
        "FairPlay-protected", "video only", "no moov",
    ])
    func badFiles(_ case: String) async throws {
        let url: URL
        let expected: String
        switch `case` {
        case "a moov cut short":
            url = try await changed { $0.removeLast(200) }
            expected = "past its container's end"
        case "a box of 4 GiB in a 4 KiB file":
            var bytes = [0, 0, 0, 16] + Array("ftypM4A ".utf8) + [0, 0, 0, 0] + bigEndian(0xFFFF_FFF0) + Array("free".utf8)
            bytes += [UInt8](repeating: 0, count: 4096 - bytes.count)
            url = try Fixtures.shared.scratchDirectory().appendingPathComponent("huge-box.m4a")
            try Data(bytes).write(to: url)
            expected = "past its container's end"
        case "stsz and stts that disagree":
            url = try await changed { bytes in
                let stts = try box("stts", in: bytes)
                // The first entry's sample count (after version, flags and the entry count).
                bytes.replaceSubrange((stts + 12)..<(stts + 16), with: bigEndian(5))
            }
            expected = "'stts'"
        case "chunk offsets past the end":
            url = try await changed(faststart: true) { bytes in
                let stco = try box("stco", in: bytes)
                let count = Int(bytes[stco + 11])
                for entry in 0..<count { bytes.replaceSubrange((stco + 12 + 4 * entry)..<(stco + 16 + 4 * entry), with: bigEndian(0x7FFF_0000)) }
            }
            expected = "truncated"
        case "FairPlay-protected":
            url = try await changed { bytes in
                let entry = try box("mp4a", in: bytes)
                bytes.replaceSubrange(entry..<(entry + 4), with: Array("drms".utf8))
            }
            expected = "protected (FairPlay), cannot be played"
        case "video only":
            url = try Fixtures.shared.scratchDirectory().appendingPathComponent("video.mp4")
            try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10",
                                                    "-t", "0.3", "-c:v", "mpeg4", "-fflags", "+bitexact", url.path])
            expected = "no audio track"
        default:
            url = try await changed { bytes in
                let moov = try box("moov", in: bytes)
                bytes.replaceSubrange(moov..<(moov + 4), with: Array("free".utf8))
            }
            expected = "no 'moov' box"
        }
        let message = openError(url)
        #expect(message.contains(expected), "\(message)")
    }
}
