/// Decodes base64 straight from bytes (Opus carries pictures as base64 comments), bounded by the
/// caller's cap, without building a String of many megabytes first.
package enum Base64 {
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    /// The decoded bytes, or nil if `text` has characters outside the alphabet (whitespace is
    /// skipped, `=` ends the data) or would decode to more than `maxBytes`.
    static func decode(_ text: ArraySlice<UInt8>, maxBytes: Int) -> [UInt8]? {
        guard text.count / 4 * 3 <= maxBytes + 3 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            if character == UInt8(ascii: "=") { break }
            if character == 0x20 || character == 0x0A || character == 0x0D || character == 0x09 { continue }
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6 | UInt32(value)) & 0xFFFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output.count <= maxBytes ? output : nil
    }
}
