import Model

/// Reads the 128-byte ID3v1/v1.1 tag at a file's end: old files carry only this, and it fills
/// in what an ID3v2 tag lacks.
package enum ID3v1Parser {
    static let size = 128

    /// The tag in `bytes` (the file's last 128 bytes), nil if they are not an ID3v1 tag.
    static func parse(_ bytes: ArraySlice<UInt8>) -> TrackTags? {
        guard bytes.count == size, bytes.starts(with: "TAG".utf8) else { return nil }
        var reader = ByteReader(bytes)
        reader.skip(3)
        func field(_ length: Int) -> String? {
            reader.take(length).flatMap { text($0) }
        }
        var tags = TrackTags()
        tags.title = field(30)
        tags.artist = field(30)
        tags.album = field(30)
        tags.year = field(4).flatMap(TagValue.year)
        guard let comment = reader.take(30), let genre = reader.u8() else { return tags }
        // v1.1: a zero byte before the comment's last byte makes that byte the track number.
        let last = comment[comment.endIndex - 1], beforeLast = comment[comment.endIndex - 2]
        if beforeLast == 0 && last != 0 { tags.trackNumber = Int(last) }
        tags.genre = ID3Genre.name(Int(genre))
        return tags
    }

    /// A fixed-width field: text up to the first zero byte, ISO-8859-1, trimmed.
    private static func text(_ field: ArraySlice<UInt8>) -> String? {
        let used = field.prefix { $0 != 0 }
        return TextDecoding.nonEmpty(TextDecoding.latin1(used))
    }
}
