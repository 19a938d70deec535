/// Ogg's page checksum (CRC-32, polynomial 0x04C11DB7, no reflection, zero start): checking it
/// tells a real page from the bytes "OggS" turning up inside audio data. MPEG-TS sections use
/// the same CRC started at 0xFFFFFFFF (`TSProgramTables`), for the same reason.
package enum OggCRC {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 {
            value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1
        }
        return value
    }

    /// The checksum of `bytes`, with the four bytes at `zeroing` (the checksum field) read as zero.
    package static func checksum(_ bytes: ArraySlice<UInt8>, zeroing field: Range<Int> = 0..<0, start: UInt32 = 0) -> UInt32 {
        var crc = start
        for index in bytes.indices {
            let byte = field.contains(index) ? 0 : bytes[index]
            crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))]
        }
        return crc
    }
}
