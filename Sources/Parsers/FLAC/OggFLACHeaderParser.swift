import Model

/// Reads Ogg FLAC's first two packets (FLAC's Ogg mapping): `\x7FFLAC`, the mapping version, the
/// header count, `fLaC` and STREAMINFO; then the first metadata block, VORBIS_COMMENT as a rule.
/// The duration is the last granule position (a sample number) over the rate.
package enum OggFLACHeaderParser {
    static let magic: [UInt8] = [0x7F] + Array("FLAC".utf8)
    /// Where STREAMINFO's body starts: magic, version (2), header count (2), `fLaC`, block header.
    static let streamInfoOffset = 13 + FLACBlockHeader.size

    /// The sample rate, nil if `packet` is not an Ogg FLAC first packet.
    static func sampleRate(ofFirst packet: [UInt8]) -> Int? {
        guard packet.starts(with: magic), packet.count >= streamInfoOffset + FLACStreamInfo.size,
              packet[9..<13].elementsEqual(FLACMetadataReader.magic) else { return nil }
        return FLACStreamInfo(packet[streamInfoOffset...])?.sampleRate
    }

    /// The tags and chapters of the second packet, if it is the VORBIS_COMMENT block.
    static func comments(_ packet: [UInt8]) -> VorbisComments.Read {
        guard let header = FLACBlockHeader(packet[...]), header.type == FLACBlockHeader.vorbisComment else {
            return VorbisComments.Read(tags: TrackTags(), chapters: [])
        }
        return VorbisComments.read(packet.dropFirst(FLACBlockHeader.size))
    }
}
