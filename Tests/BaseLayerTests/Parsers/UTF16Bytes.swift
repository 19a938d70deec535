/// `text` as UTF-16 with its byte order mark, as Windows Notepad saves "Unicode" (little-endian)
/// and "Unicode big endian": how lists written on Windows reach the parsers.
func utf16Bytes(_ text: String, bigEndian: Bool = false) -> [UInt8] {
    var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
    for unit in text.utf16 {
        let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
        bytes += bigEndian ? [high, low] : [low, high]
    }
    return bytes
}
