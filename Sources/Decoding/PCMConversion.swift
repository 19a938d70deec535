import Model
import Parsers

/// Stored samples to the player's: 16-bit integers, or 24 bits in an `Int32`.
enum PCMConversion {
    static func samples(_ bytes: ArraySlice<UInt8>, encoding: PCMSampleEncoding, wide: Bool) -> PCMSamples {
        let count = bytes.count / encoding.bytes
        return bytes.withUnsafeBytes { raw in
            if wide {
                return .int32((0..<count).map { wideSample(raw, at: $0 * encoding.bytes, encoding) })
            }
            return .int16((0..<count).map { narrowSample(raw, at: $0 * encoding.bytes, encoding) })
        }
    }

    /// The stored integer at `offset`, its bytes in the encoding's order, sign-extended.
    private static func integer(_ raw: UnsafeRawBufferPointer, at offset: Int, _ encoding: PCMSampleEncoding) -> Int64 {
        let value = unsignedBits(raw, at: offset, encoding)
        let bits = UInt64(encoding.bytes * 8)
        if encoding.kind == .unsigned { return Int64(value) - (1 << (bits - 1)) }
        return Int64(bitPattern: value << (64 - bits)) >> (64 - bits)
    }

    /// 8 or 16 bits as 16 bits.
    private static func narrowSample(_ raw: UnsafeRawBufferPointer, at offset: Int, _ encoding: PCMSampleEncoding) -> Int16 {
        Int16(truncatingIfNeeded: integer(raw, at: offset, encoding) << (16 - encoding.bytes * 8))
    }

    /// 24 bits of a 24- or 32-bit integer or a float: a 32-bit value rounded to its top 24 bits,
    /// a float taken to 32 bits first (rounded, clipped), as sox converts both.
    private static func wideSample(_ raw: UnsafeRawBufferPointer, at offset: Int, _ encoding: PCMSampleEncoding) -> Int32 {
        let full: Int64
        switch encoding.kind {
        case .float:
            let value: Double
            if encoding.bytes == 4 {
                value = Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsignedBits(raw, at: offset, encoding))))
            } else {
                value = Double(bitPattern: unsignedBits(raw, at: offset, encoding))
            }
            let scaled = value.isNaN ? 0 : (value * 2_147_483_648).rounded(.toNearestOrAwayFromZero)
            full = Int64(max(-2_147_483_648, min(2_147_483_647, scaled)))
        case .signed, .unsigned:
            full = integer(raw, at: offset, encoding) << (32 - encoding.bytes * 8)
        }
        return Int32(min(Int64(0x7F_FFFF), (full + 128) >> 8))
    }

    /// The stored bytes at `offset` as one number, in the encoding's byte order.
    private static func unsignedBits(_ raw: UnsafeRawBufferPointer, at offset: Int, _ encoding: PCMSampleEncoding) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<encoding.bytes {
            value = value << 8 | UInt64(raw[offset + (encoding.bigEndian ? index : encoding.bytes - 1 - index)])
        }
        return value
    }
}
