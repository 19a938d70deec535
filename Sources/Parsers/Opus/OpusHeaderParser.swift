import Model

/// Reads Opus's two header packets: `OpusHead` for the pre-skip (samples a decoder drops at the
/// start, needed for the exact duration) and `OpusTags` for the Vorbis-style comments.
package enum OpusHeaderParser {
    /// The pre-skip, nil if `packet` is not an OpusHead packet.
    static func preSkip(ofHead packet: [UInt8]) -> Int? {
        var reader = ByteReader(packet)
        guard reader.take(8)?.elementsEqual("OpusHead".utf8) == true, let version = reader.u8(),
              version >> 4 == 0, let channels = reader.u8(), channels > 0,
              let preSkip = reader.littleEndian(2),
              reader.remaining >= 7 else { return nil }  // input rate, output gain, mapping family
        return Int(preSkip)
    }

    /// The tags and chapters in an OpusTags packet, which may be cut short (comments past the end are lost).
    static func comments(_ packet: [UInt8]) throws -> VorbisComments.Read {
        guard packet.starts(with: "OpusTags".utf8) else {
            throw ParseError.malformed("an Opus stream whose second packet is not OpusTags")
        }
        return VorbisComments.read(packet.dropFirst(8))
    }
}
