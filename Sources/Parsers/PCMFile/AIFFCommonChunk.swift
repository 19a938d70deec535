/// An AIFF or AIFF-C `COMM` chunk: the shape of the audio, its length in frames, and for AIFF-C
/// how the samples are stored (its compression type; only the uncompressed ones are played).
struct AIFFCommonChunk: Equatable {
    var channels: Int
    var frames: Int64
    var sampleRate: Int
    var encoding: PCMSampleEncoding

    /// `body`: the chunk's bytes (18; 22 and more for AIFF-C); `compressed`: an AIFC file.
    init(_ body: ArraySlice<UInt8>, compressed: Bool) throws {
        var reader = ByteReader(body)
        guard let channels = reader.bigEndian(2).map(Int.init), let frames = reader.u32be(),
              let bits = reader.bigEndian(2).map(Int.init), let rate = reader.take(10) else {
            throw ParseError.malformed("a COMM chunk of \(body.count) bytes")
        }
        guard let sampleRate = Self.extended(rate) else {
            throw ParseError.malformed("a COMM chunk whose sample rate is not a whole number of Hz")
        }
        let bytes = (bits + 7) / 8
        var encoding = PCMSampleEncoding(.signed, bytes: bytes, bigEndian: true)
        if compressed {
            guard let type = reader.take(4) else { throw ParseError.malformed("an AIFF-C COMM chunk without its compression type") }
            switch String(decoding: type, as: UTF8.self) {
            case "NONE", "twos": break
            case "sowt": encoding.bigEndian = false
            case "raw ": encoding.kind = .unsigned
            case "in24": encoding.bytes = 3
            case "in32": encoding.bytes = 4
            case "42ni": encoding = PCMSampleEncoding(.signed, bytes: 4, bigEndian: false)
            case "fl32", "FL32": encoding = PCMSampleEncoding(.float, bytes: 4, bigEndian: true)
            case "fl64", "FL64": encoding = PCMSampleEncoding(.float, bytes: 8, bigEndian: true)
            case let other: throw ParseError.unsupported("AIFF-C compression '\(other)' (compressed audio)")
            }
        }
        guard (1...4).contains(encoding.bytes) || encoding.kind == .float, bits > 0 || encoding.kind == .float else {
            throw ParseError.unsupported("AIFF samples of \(bits) bits")
        }
        guard channels > 0 else { throw ParseError.malformed("a COMM chunk of \(channels) channels") }
        self.channels = channels
        self.frames = Int64(frames)
        self.sampleRate = sampleRate
        self.encoding = encoding
    }

    /// An 80-bit IEEE 754 extended number (sign, 15-bit exponent, 64-bit mantissa with its
    /// integer bit), as a whole positive number up to 10 MHz; nil for anything else (zero, a
    /// fraction, infinity, NaN, a denormal).
    static func extended(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 10 else { return nil }
        let raw = Array(bytes)
        let signAndExponent = Int(raw[0]) << 8 | Int(raw[1])
        let mantissa = raw[2...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard signAndExponent & 0x8000 == 0, mantissa >> 63 == 1 else { return nil }
        // The value is mantissa × 2^(exponent − 16383 − 63); whole only if the shift leaves no bits.
        let shift = 16383 + 63 - (signAndExponent & 0x7FFF)
        guard (0..<64).contains(shift), mantissa & ((UInt64(1) << UInt64(shift)) - 1) == 0 else { return nil }
        let value = mantissa >> UInt64(shift)
        guard value <= 10_000_000 else { return nil }
        return Int(value)
    }
}
