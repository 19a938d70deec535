/// A track's audio sample entry (`stsd`): which codec, the configuration its decoder starts from,
/// and the channel count. AAC's configuration is the `AudioSpecificConfig` in the `esds`
/// descriptor (ISO/IEC 14496-1 §7.2.6); ALAC's is its whole 36-byte `alac` box, as FFmpeg's
/// decoder takes it.
package struct MP4SampleEntry: Sendable, Equatable {
    package enum Codec: Sendable, Equatable {
        case aac(config: [UInt8])
        case alac(config: [UInt8])
    }

    package var codec: Codec
    package var channels: Int
    /// From the entry (16.16 fixed point; 0 for rates above 65535): the `mdhd` timescale is the
    /// one to trust.
    package var sampleRate: Int

    /// MPEG-4 audio's object type indication in the `esds` (ISO/IEC 14496-1 Table 5).
    static let mpeg4Audio: UInt8 = 0x40

    /// `body`: the `stsd` box's body (version and flags, entry count, entries).
    init(stsd body: ArraySlice<UInt8>) throws {
        var reader = ByteReader(body)
        // Offsets below count from the first entry.
        let bytes = body.dropFirst(8)
        guard reader.skip(4), let count = reader.u32be(), count >= 1,
              let entry = try MP4Box(bytes, at: 0, containerEnd: Int64(bytes.count)) else {
            throw ParseError.malformed("an 'stsd' box without a sample entry")
        }
        switch entry.type {
        case "mp4a", "alac": break
        case "drms", "enca": throw ParseError.unsupported("protected (FairPlay), cannot be played")
        default: throw ParseError.unsupported("an MP4 audio track of '\(entry.type)' (cloudplayerd plays AAC and ALAC in MP4)")
        }
        // AudioSampleEntry: 6 reserved, data reference index, QuickTime's version (1 and 2 add
        // 16 and 36 bytes), 6 more, channels, sample size, 4 more, the rate.
        var fields = ByteReader(bytes[(bytes.startIndex + Int(entry.bodyStart))..<(bytes.startIndex + Int(entry.end))])
        guard fields.skip(8), let version = fields.bigEndian(2), fields.skip(6), let channels = fields.bigEndian(2).map(Int.init),
              fields.skip(6), let rate = fields.u32be(), fields.skip(version == 1 ? 16 : version == 2 ? 36 : 0) else {
            throw ParseError.malformed("a short '\(entry.type)' sample entry")
        }
        let childrenStart = entry.bodyStart + Int64(entry.end - entry.bodyStart) - Int64(fields.remaining)
        let children = try MP4Box.children(of: bytes[(bytes.startIndex + Int(childrenStart))..<(bytes.startIndex + Int(entry.end))],
                                           at: childrenStart)
        func content(_ box: MP4Box) -> ArraySlice<UInt8> {
            bytes[(bytes.startIndex + Int(box.start))..<(bytes.startIndex + Int(box.end))]
        }
        if entry.type == "alac" {
            guard let alac = children.first(where: { $0.type == "alac" }), alac.end - alac.start >= 36 else {
                throw ParseError.malformed("an ALAC sample entry without its 'alac' configuration")
            }
            codec = .alac(config: Array(content(alac)))
        } else {
            guard let esds = children.first(where: { $0.type == "esds" }) else {
                throw ParseError.malformed("an 'mp4a' sample entry without its 'esds'")
            }
            codec = .aac(config: try Self.audioSpecificConfig(content(esds).dropFirst(Int(esds.bodyStart - esds.start) + 4)))
        }
        self.channels = channels
        sampleRate = rate >> 16
    }

    /// The `AudioSpecificConfig` in an ES descriptor: tag 3 (ES), tag 4 (decoder configuration,
    /// MPEG-4 audio), tag 5 (decoder specific information).
    static func audioSpecificConfig(_ descriptors: ArraySlice<UInt8>) throws -> [UInt8] {
        var reader = ByteReader(descriptors)
        func descriptor(_ tag: UInt8) throws -> Int {
            guard reader.u8() == tag else { throw ParseError.malformed("an 'esds' without descriptor \(tag)") }
            var length = 0
            for _ in 0..<4 {
                guard let byte = reader.u8() else { break }
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            return length
        }
        _ = try descriptor(3)
        guard reader.skip(2), let flags = reader.u8() else { throw ParseError.malformed("a short ES descriptor") }
        if flags & 0x80 != 0 { _ = reader.skip(2) }  // depends on another stream
        if flags & 0x40 != 0, let length = reader.u8() { _ = reader.skip(Int(length)) }  // a URL
        if flags & 0x20 != 0 { _ = reader.skip(2) }  // OCR stream
        _ = try descriptor(4)
        guard reader.u8() == Self.mpeg4Audio, reader.skip(12) else {
            throw ParseError.unsupported("an 'mp4a' track that is not MPEG-4 audio (AAC)")
        }
        let length = try descriptor(5)
        guard length > 0, let config = reader.take(length) else { throw ParseError.malformed("an 'esds' without its AAC configuration") }
        return Array(config)
    }
}
