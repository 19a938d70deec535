import Base

/// Turns bytes from tags and playlists into bounded strings. Files in the wild mix UTF-8 and
/// ISO-8859-1, and a string longer than any real tag is a sign of garbage, so it is cut.
package enum TextDecoding {
    /// The longest string a parser keeps, in bytes of input.
    package static let maxBytes = 64 * 1024

    /// Each byte is the Unicode scalar of the same value.
    package static func latin1<C: Collection<UInt8>>(_ bytes: C) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes.prefix(maxBytes) { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// UTF-8 with invalid sequences replaced by U+FFFD.
    static func utf8<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(decoding: bytes.prefix(maxBytes), as: UTF8.self)
    }

    /// UTF-16 whose byte order a BOM may give; without one, `bigEndianDefault` decides. Cut
    /// after `limit` bytes.
    static func utf16(_ bytes: ArraySlice<UInt8>, bigEndianDefault: Bool, limit: Int = maxBytes) -> String {
        var body = bytes
        var bigEndian = bigEndianDefault
        if body.count >= 2 {
            let first = body[body.startIndex], second = body[body.startIndex + 1]
            if first == 0xFF && second == 0xFE {
                bigEndian = false
                body = body.dropFirst(2)
            } else if first == 0xFE && second == 0xFF {
                bigEndian = true
                body = body.dropFirst(2)
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity(min(body.count, limit) / 2)
        var index = body.startIndex
        while index + 1 < body.endIndex, units.count < limit / 2 {
            let high = UInt16(body[index]), low = UInt16(body[index + 1])
            units.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The whole input as text, UTF-8 if valid else ISO-8859-1, without the length cap (for
    /// documents, which their parsers bound by other means). A UTF-8 byte order mark is dropped;
    /// a UTF-16 one (Windows Notepad's "Unicode") says the text is UTF-16.
    static func document(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return utf16(bytes[...], bigEndianDefault: true, limit: bytes.count)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(body.count)
        for byte in body { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// Trims whitespace and NULs; nil when nothing is left.
    package static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimming(while: { $0.properties.isWhitespace || $0 == "\0" })
        return trimmed.isEmpty ? nil : trimmed
    }
}
