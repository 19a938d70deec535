/// A message cut into the 64-byte blocks SHA-256 and MD5 both digest, padded as both pad it
/// (a 1 bit, zeros, the length in bits as 64 bits) — big-endian for SHA-256, little-endian for MD5.
struct MessageBlocks: Sequence {
    private let padded: [UInt8]

    init(_ message: some Collection<UInt8>, bigEndianLength: Bool) {
        var bytes = Array(message)
        let bits = UInt64(bytes.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for index in 0..<8 {
            let shift = bigEndianLength ? 56 - 8 * index : 8 * index
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        padded = bytes
    }

    func makeIterator() -> AnyIterator<Block> {
        var start = 0
        return AnyIterator { [padded] in
            guard start < padded.count else { return nil }
            defer { start += 64 }
            return Block(bytes: padded[start..<start + 64])
        }
    }

    /// One 64-byte block, read as sixteen 32-bit words.
    struct Block {
        let bytes: ArraySlice<UInt8>

        func bigEndianWord(_ index: Int) -> UInt32 {
            let at = bytes.startIndex + 4 * index
            return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }

        func littleEndianWord(_ index: Int) -> UInt32 {
            let at = bytes.startIndex + 4 * index
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
    }
}
