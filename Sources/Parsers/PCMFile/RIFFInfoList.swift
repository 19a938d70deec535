import Model

/// The tags of a RIFF `LIST` chunk of type `INFO`: subchunks of a four-letter id and a
/// NUL-terminated text, UTF-8 where valid, else ISO-8859-1 (what Windows wrote).
enum RIFFInfoList {
    /// `body`: the subchunks (after the `INFO` type).
    static func tags(_ body: ArraySlice<UInt8>) -> TrackTags {
        var tags = TrackTags()
        var reader = ByteReader(body)
        while let id = reader.take(4), let size = reader.u32le(), let text = reader.take(min(size, reader.remaining)) {
            if size & 1 == 1 { _ = reader.skip(1) }
            guard let value = TextDecoding.nonEmpty(decoded(text)) else { continue }
            switch String(decoding: id, as: UTF8.self) {
            case "INAM": tags.title = value
            case "IART": tags.artist = value
            case "IPRD": tags.album = value
            case "IGNR": tags.genre = value
            case "ICRD": tags.year = Int(value.prefix(4))
            case "ITRK", "IPRT": tags.trackNumber = Int(value.prefix { $0.isNumber })
            default: break
            }
        }
        return tags
    }

    private static func decoded(_ bytes: ArraySlice<UInt8>) -> String {
        let text = bytes.prefix { $0 != 0 }
        return String(validating: text, as: UTF8.self) ?? TextDecoding.latin1(text)
    }
}
