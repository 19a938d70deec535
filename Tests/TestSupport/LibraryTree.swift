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
        try await ChildProcess.check("sox", ["-V1", "-n", "-r", "22050", "-c", "1", "-b", "16", wav.path, "synth", "1", "sine", "440"])
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

    /// An ID3v2.3 tag with UTF-16 (BOM) text frames: title, artist, album, track number.
    public static func id3v2(title: String, artist: String, album: String, track: Int) -> [UInt8] {
        func frame(_ id: String, _ text: String) -> [UInt8] {
            var body: [UInt8] = [1, 0xFF, 0xFE]  // UTF-16 with a little-endian BOM
            for unit in text.utf16 { body += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            let size = UInt32(body.count)
            return Array(id.utf8) + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF), 0, 0] + body
        }
        let frames = frame("TIT2", title) + frame("TPE1", artist) + frame("TALB", album) + frame("TRCK", "\(track)")
        let size = frames.count
        let syncsafe: [UInt8] = [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
        return Array("ID3".utf8) + [3, 0, 0] + syncsafe + frames
    }
}
