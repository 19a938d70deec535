/// What an elementary stream of a transport stream carries, by its PMT entry: the audio this
/// player can take out of a segment, ID3 timed metadata, or anything else (named, not played).
package enum TSStreamKind: Sendable, Equatable {
    /// stream_type 0x0F: AAC in ADTS frames.
    case adtsAAC
    /// stream_type 0x03 or 0x04: MPEG-1/2 audio (MP3, MP2).
    case mpegAudio
    /// stream_type 0x15 with a descriptor naming "ID3 ": ID3v2 tags as timed metadata (HLS).
    case id3Metadata
    /// Any other stream_type (0x81 AC-3, 0x1B H.264 …).
    case other(streamType: UInt8)

    /// From a PMT entry: its stream_type and its descriptors (tag, length, body …).
    init(streamType: UInt8, descriptors: ArraySlice<UInt8>) {
        switch streamType {
        case 0x0F: self = .adtsAAC
        case 0x03, 0x04: self = .mpegAudio
        case 0x15 where Self.namesID3(descriptors): self = .id3Metadata
        default: self = .other(streamType: streamType)
        }
    }

    var isAudio: Bool { self == .adtsAAC || self == .mpegAudio }

    /// Whether a registration descriptor (0x05) or a metadata descriptor (0x26) says "ID3 ":
    /// 0x15 is any metadata carried in PES packets, and HLS marks its ID3 this way.
    private static func namesID3(_ descriptors: ArraySlice<UInt8>) -> Bool {
        var reader = ByteReader(descriptors)
        let id3 = Array("ID3 ".utf8)
        while let tag = reader.u8(), let length = reader.u8(), let body = reader.take(Int(length)) {
            switch tag {
            case 0x05 where body.starts(with: id3): return true
            case 0x26 where body.indices.contains(where: { body[$0...].starts(with: id3) }): return true
            default: continue
            }
        }
        return false
    }
}
