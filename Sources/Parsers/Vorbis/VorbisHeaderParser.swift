import Model

/// Reads Vorbis's first two header packets: the identification header for the sample rate (the
/// duration is the last granule position over it: Vorbis has no pre-skip) and the comment header.
package enum VorbisHeaderParser {
    static let identificationMagic: [UInt8] = [0x01] + Array("vorbis".utf8)
    static let commentMagic: [UInt8] = [0x03] + Array("vorbis".utf8)

    /// The sample rate, nil if `packet` is not a Vorbis identification header.
    static func sampleRate(ofIdentification packet: [UInt8]) -> Int? {
        guard packet.starts(with: identificationMagic) else { return nil }
        var reader = ByteReader(packet.dropFirst(identificationMagic.count))
        guard let version = reader.u32le(), version == 0, let channels = reader.u8(), channels > 0,
              let rate = reader.u32le(), rate > 0 else { return nil }
        return rate
    }

    /// The tags and chapters in a comment header, which may be cut short (comments past the end are lost).
    static func comments(_ packet: [UInt8]) throws -> VorbisComments.Read {
        guard packet.starts(with: commentMagic) else {
            throw ParseError.malformed("a Vorbis stream whose second packet is not its comment header")
        }
        return VorbisComments.read(packet.dropFirst(commentMagic.count))
    }
}
