/// A WAV `fmt ` chunk: PCM (format 1), IEEE float (3), or `WAVE_FORMAT_EXTENSIBLE` (0xFFFE)
/// naming either by its subformat GUID, whose first two bytes are the format code.
struct WAVFormatChunk: Equatable {
    var channels: Int
    var sampleRate: Int
    var encoding: PCMSampleEncoding

    static let pcm = 1
    static let float = 3
    static let extensible = 0xFFFE

    /// `body`: the chunk's bytes (16 at least; 40 for the extensible form).
    init(_ body: ArraySlice<UInt8>) throws {
        var reader = ByteReader(body)
        guard var format = reader.littleEndian(2).map(Int.init), let channels = reader.littleEndian(2).map(Int.init),
              let rate = reader.u32le(), reader.skip(4), let blockAlign = reader.littleEndian(2).map(Int.init),
              let bits = reader.littleEndian(2).map(Int.init) else {
            throw ParseError.malformed("a fmt chunk of \(body.count) bytes")
        }
        if format == Self.extensible {
            // cbSize, valid bits, channel mask, then the subformat GUID.
            guard reader.skip(8), let code = reader.littleEndian(2).map(Int.init) else {
                throw ParseError.malformed("an extensible fmt chunk without its subformat")
            }
            format = code
        }
        guard channels > 0, blockAlign > 0, blockAlign % channels == 0 else {
            throw ParseError.malformed("a fmt chunk of \(channels) channels in blocks of \(blockAlign) bytes")
        }
        // The container size per sample; `bits` may be fewer (20 bits in 3 bytes), played as they are stored.
        let bytes = blockAlign / channels
        switch format {
        case Self.pcm where (1...4).contains(bytes) && bits <= bytes * 8:
            encoding = PCMSampleEncoding(bytes == 1 ? .unsigned : .signed, bytes: bytes, bigEndian: false)
        case Self.float where bytes == 4 || bytes == 8:
            encoding = PCMSampleEncoding(.float, bytes: bytes, bigEndian: false)
        case Self.pcm, Self.float:
            throw ParseError.unsupported("WAV samples of \(bits) bits in \(bytes) bytes")
        default:
            throw ParseError.unsupported("WAV format 0x\(String(format, radix: 16, uppercase: true)) (compressed audio in WAV)")
        }
        self.channels = channels
        sampleRate = rate
    }
}
