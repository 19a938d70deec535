import Model

/// Looks at the last Ogg page of a stream: a whole file ends with a complete page, whose checksum
/// holds, that has the end-of-stream flag; anything else means it was cut short or damaged.
package enum OggTail {
    package static func endsWithEndOfStream(_ source: any ByteSource) throws -> Bool {
        guard let length = source.length, length > 0 else { return true }
        let start = max(0, length - Int64(OggPage.maxSize))
        let tail = try source.readBytes(at: start, count: Int(length - start))
        return OggPage.last(in: tail[...]) { $0.end == tail.endIndex }?.endsStream ?? false
    }
}
