import Model

/// The two ways an MP4 file (an M4B audiobook) lists its chapters, as bytes to values:
/// Nero's `chpl` box in `moov/udta`, and a QuickTime chapter track — a text track the audio
/// track names in `tref/chap`, one text sample per chapter, whose sample times are the starts.
/// Fetching those samples is the tag reader's work (`MP4ChapterReader`).
package enum MP4ChapterText {
    /// The unit of `chpl` start times: 100 ns.
    static let neroTimescale = 10_000_000.0

    /// `chpl`'s body: version and flags, four more bytes in version 1, a one-byte count, then per
    /// chapter a 64-bit start (in 100 ns) and a title with a one-byte length (UTF-8).
    package static func nero(_ body: ArraySlice<UInt8>) -> [Chapter] {
        var reader = ByteReader(body)
        guard let version = reader.u8(), reader.skip(3), version == 0 || reader.skip(4), let count = reader.u8() else { return [] }
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard let start = reader.bigEndian(8), let length = reader.u8(), let title = reader.take(Int(length)) else { break }
            chapters.append(Chapter(start: Double(start) / neroTimescale, title: TextDecoding.utf8(title)))
        }
        return chapters
    }

    /// A text sample's title: a 16-bit length, then the text — UTF-16 if it starts with a byte
    /// order mark, else UTF-8 — and boxes after it (`encd`, styles) that say nothing we show.
    package static func title(ofSample sample: ArraySlice<UInt8>) -> String {
        var reader = ByteReader(sample)
        guard let length = reader.bigEndian(2), let text = reader.take(min(Int(length), reader.remaining)) else { return "" }
        if text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE]) {
            return TextDecoding.utf16(text, bigEndianDefault: true)
        }
        return TextDecoding.utf8(text)
    }

    /// `tref/chap`'s body: the ids of the chapter tracks.
    package static func trackIDs(_ chap: ArraySlice<UInt8>) -> [Int] {
        var reader = ByteReader(chap)
        var ids: [Int] = []
        while ids.count < 64, let id = reader.u32be() { ids.append(id) }
        return ids
    }
}
