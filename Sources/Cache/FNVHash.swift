/// FNV-1a, 64 bits: a fast, stable hash for file names that must not reveal what they name.
/// Two different offset bases give two independent-enough hashes, so a name plus a check value
/// stored inside the file make a mix-up of two resources practically impossible.
package enum FNVHash {
    static let standardBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let alternateBasis: UInt64 = 0x6c62_272e_07bb_0142

    package static func hash<Bytes: Sequence>(_ bytes: Bytes, basis: UInt64 = standardBasis) -> UInt64 where Bytes.Element == UInt8 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Sixteen hex digits, zero-padded.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
