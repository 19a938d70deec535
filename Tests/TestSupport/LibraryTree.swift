import Foundation

/// A generated music library: `Artist NN/Album M/TT Song ….mp3`, every file a tiny real MP3
/// (one second, lame with its Info header) behind an ID3v2.3 tag written here — so thousands of
/// files with distinct tags take a moment, not a minute of encoding.
public enum LibraryTree {
    public struct Track: Sendable, Equatable {
        /// Relative to the tree's root, not percent-encoded.
        public let path: String
        public let title: String
        public let artist: String
        public let album: String
        public let number: Int
    }

    /// The one-second MP3 every file shares (22.05 kHz mono, 64 kbit/s CBR, with lame's Info
    /// header: its exact length is in it), and its length in seconds as mpg123 decodes it.
    public static func audio() async throws -> (bytes: [UInt8], seconds: Double) {
        let folder = try Fixtures.shared.scratchDirectory()
        let wav = folder.appendingPathComponent("tone.wav"), mp3 = folder.appendingPathComponent("tone.mp3")
        try await ChildProcess.check("sox", ["-R", "-V1", "-n", "-r", "22050", "-c", "1", "-b", "16", wav.path, "synth", "1", "sine", "440"])
        try await ChildProcess.check("lame", ["--quiet", "-b", "64", "--noreplaygain", wav.path, mp3.path])
        let decoded = try await ReferenceDecoder.mpg123(mp3)
        return (Array(try Data(contentsOf: mp3)), Double(decoded.frameCount) / Double(decoded.sampleRate))
    }

    /// Writes `artists × albums × tracks` files under `root` and returns them.
    public static func write(into root: URL, artists: Int, albums: Int, tracks: Int, audio: [UInt8]) throws -> [Track] {
        var written: [Track] = []
        for a in 1...artists {
            for b in 1...albums {
                let artist = String(format: "Artist %02d", a)
                let album = "Album \(b)" + (b == 1 ? " (Café Ø)" : "")
                let folder = root.appendingPathComponent(artist).appendingPathComponent(album)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for t in 1...tracks {
                    let title = String(format: "Song A%02d B%d T%02d", a, b, t)
                    let name = String(format: "%02d %@.mp3", t, title)
                    try Data(id3v2(title: title, artist: artist, album: album, track: t) + audio)
                        .write(to: folder.appendingPathComponent(name))
                    written.append(Track(path: "\(artist)/\(album)/\(name)", title: title, artist: artist, album: album, number: t))
                }
            }
        }
        return written
    }

    /// How a tag is written: ID3v2.3 (plain frame sizes), ID3v2.4 (syncsafe ones), or ID3v2.4
    /// with plain sizes, as old iTunes wrote them.
    public enum TagLayout: String, Sendable, CaseIterable, CustomStringConvertible {
        case v23, v24, v24PlainSizes

        public var description: String { rawValue }
    }

    /// An ID3v2 tag with UTF-16 (BOM) text frames: title, artist, album, track number; with
    /// `cover`, a front-cover APIC frame first, as taggers put it; then `padding` zero bytes.
    public static func id3v2(title: String, artist: String, album: String, track: Int, cover: [UInt8]? = nil,
                             layout: TagLayout = .v23, padding: Int = 0) -> [UInt8] {
        func size(_ value: Int, syncsafe: Bool) -> [UInt8] {
            syncsafe ? [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
                : [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + size(body.count, syncsafe: layout == .v24) + [0, 0] + body
        }
        func text(_ id: String, _ text: String) -> [UInt8] {
            var body: [UInt8] = [1, 0xFF, 0xFE]  // UTF-16 with a little-endian BOM
            for unit in text.utf16 { body += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            return frame(id, body)
        }
        var frames: [UInt8] = []
        if let cover { frames += frame("APIC", [0] + Array("image/jpeg".utf8) + [0, 3, 0] + cover) }
        frames += text("TIT2", title) + text("TPE1", artist) + text("TALB", album) + text("TRCK", "\(track)")
        frames += [UInt8](repeating: 0, count: padding)
        return Array("ID3".utf8) + [layout == .v23 ? 3 : 4, 0, 0] + size(frames.count, syncsafe: true) + frames
    }

    /// A picture of `size` bytes, JPEG's start then bytes with the top bit set: never a zero
    /// or a frame ID letter, so a frame size read wrongly cannot land on something that looks
    /// like a frame. 2,031,602 bytes make an APIC frame of 0x001F0000 bytes, a size that reads
    /// as a valid syncsafe number too (507,904): the case old iTunes' plain sizes bring.
    public static func cover(size: Int = 2_031_602) -> [UInt8] {
        var state: UInt32 = 0x2545F491
        return [0xFF, 0xD8, 0xFF, 0xE0] + (4..<size).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24) | 0x80
        }
    }
}
