import Model

/// Looks at the last Ogg page of a stream: a whole file ends with a complete page that has the
/// end-of-stream flag, so anything else means it was cut short.
package enum OggTail {
    /// The largest possible Ogg page: 27-byte header, 255 lacing values, 255 × 255 bytes of body.
    private static let maxPage = 27 + 255 + 255 * 255

    package static func endsWithEndOfStream(_ source: any ByteSource) throws -> Bool {
        guard let length = source.length, length > 0 else { return true }
        let start = max(0, length - Int64(maxPage))
        let tail = try source.readBytes(at: start, count: Int(length - start))
        let magic = Array("OggS".utf8)
        var position = tail.count - 27
        while position >= 0 {
            defer { position -= 1 }
            guard tail[position] == magic[0], Array(tail[position..<position + 4]) == magic else { continue }
            let segments = Int(tail[position + 26])
            guard position + 27 + segments <= tail.count else { continue }
            let body = tail[(position + 27)..<(position + 27 + segments)].reduce(0) { $0 + Int($1) }
            if position + 27 + segments + body == tail.count {
                return tail[position + 5] & 0x04 != 0
            }
        }
        return false
    }
}
