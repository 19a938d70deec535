/// Decodes ID3v2 text in its four encodings (ISO-8859-1, UTF-16 with BOM, UTF-16BE, UTF-8) and
/// finds the end of a terminated string, whose terminator is one or two zero bytes by encoding.
package enum ID3Text {
    /// The text of `bytes` in `encoding` (the frame's first byte); an unknown encoding reads as
    /// ISO-8859-1, which is what such tags usually turn out to be.
    static func decode(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> String {
        let bytes = bytes.prefix(TextDecoding.maxBytes)
        switch encoding {
        case 1, 2: return TextDecoding.utf16(bytes, bigEndianDefault: true)
        case 3: return TextDecoding.utf8(bytes)
        default: return TextDecoding.latin1(bytes)
        }
    }

    /// Splits off a terminated string: the text before the terminator and what follows it.
    /// Without a terminator, all of `bytes` is the string and nothing follows.
    static func terminated(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> (text: String, rest: ArraySlice<UInt8>) {
        let wide = encoding == 1 || encoding == 2
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if wide {
                guard index + 1 < bytes.endIndex else { break }
                if bytes[index] == 0 && bytes[index + 1] == 0 {
                    return (decode(bytes[bytes.startIndex..<index], encoding: encoding), bytes[(index + 2)...])
                }
                index += 2
            } else {
                if bytes[index] == 0 {
                    return (decode(bytes[bytes.startIndex..<index], encoding: encoding), bytes[(index + 1)...])
                }
                index += 1
            }
        }
        return (decode(bytes, encoding: encoding), bytes[bytes.endIndex...])
    }

    /// The values of a text frame: v2.4 separates several with terminators; the first
    /// non-empty one is what a single-valued field shows.
    package static func firstValue(ofTextFrame body: ArraySlice<UInt8>) -> String? {
        guard let encoding = body.first else { return nil }
        var rest = body.dropFirst()
        var guardCount = 0
        while !rest.isEmpty, guardCount < 64 {
            guardCount += 1
            let (text, next) = terminated(rest, encoding: encoding)
            if let value = TextDecoding.nonEmpty(text) { return value }
            rest = next
        }
        return nil
    }
}
