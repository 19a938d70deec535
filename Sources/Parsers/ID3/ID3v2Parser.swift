import Model

/// Reads an ID3v2.2/2.3/2.4 tag into `TrackTags`. The tag may be cut short (a capped fetch):
/// frames that do not fit are ignored, and nothing in the tag can make it trap or allocate more
/// than the tag's own bytes.
package enum ID3v2Parser {
    static let headerSize = 10
    /// The largest picture kept; a bigger one is skipped.
    static let maxPicture = 16 * 1024 * 1024

    /// The tag's total size (header, frames, padding, footer) if `bytes` starts with a valid
    /// ID3v2 header, else nil.
    package static func tagSize(_ bytes: ArraySlice<UInt8>) -> Int? {
        var reader = ByteReader(bytes)
        guard reader.take(3)?.elementsEqual("ID3".utf8) == true,
              let major = reader.u8(), (2...4).contains(major),
              let revision = reader.u8(), revision != 0xFF,
              let flags = reader.u8(),
              let size = syncsafe(reader.take(4)) else { return nil }
        let footer = major == 4 && flags & 0x10 != 0 ? headerSize : 0
        return headerSize + size + footer
    }

    /// The tags in `bytes`, which start with the tag's header and may end before the tag does.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> TrackTags {
        var tags = TrackTags()
        guard let total = tagSize(bytes) else { return tags }
        let start = bytes.startIndex
        let major = bytes[start + 3], flags = bytes[start + 5]
        // v2.2's flag 0x40 is compression, never specified: such a tag cannot be read.
        if major == 2 && flags & 0x40 != 0 { return tags }
        var body = bytes[(start + headerSize)..<(start + min(bytes.count, total))]
        let unsynchronised = flags & 0x80 != 0
        if unsynchronised && major < 4 { body = removingUnsynchronisation(body)[...] }
        var reader = ByteReader(body)
        if major >= 3 && flags & 0x40 != 0 {
            // Extended header: v2.3 gives its size without the size field, v2.4 with it (syncsafe).
            if major == 3 {
                guard let size = reader.u32be(), reader.skip(size) else { return tags }
            } else {
                guard let size = syncsafe(reader.take(4)), size >= 4, reader.skip(size - 4) else { return tags }
            }
        }
        var pictures = PictureChoice()
        var originalYear: Int?
        while let frame = nextFrame(&reader, major: major) {
            var data = frame.data
            if major == 3 {
                if frame.format & 0xC0 != 0 { continue }  // compressed or encrypted
                if frame.format & 0x20 != 0 { data = data.dropFirst(1) }  // group identifier
            } else if major == 4 {
                if frame.format & 0x0C != 0 { continue }  // compressed or encrypted
                if frame.format & 0x40 != 0 { data = data.dropFirst(1) }
                if frame.format & 0x01 != 0 { data = data.dropFirst(4) }  // data length indicator
                if frame.format & 0x02 != 0 || unsynchronised { data = removingUnsynchronisation(data)[...] }
            }
            apply(frame.id, data, to: &tags, pictures: &pictures, originalYear: &originalYear)
        }
        tags.artwork = pictures.chosen
        tags.year = tags.year ?? originalYear
        return tags
    }

    private struct Frame {
        var id: String
        var format: UInt8
        var data: ArraySlice<UInt8>
    }

    /// The next frame, or nil at padding, garbage, or the end of what was read.
    private static func nextFrame(_ reader: inout ByteReader, major: UInt8) -> Frame? {
        let idLength = major == 2 ? 3 : 4
        guard let idBytes = reader.take(idLength), idBytes.allSatisfy(isFrameIDByte) else { return nil }
        let id = String(decoding: idBytes, as: UTF8.self)
        let size: Int
        var format: UInt8 = 0
        switch major {
        case 2:
            guard let value = reader.bigEndian(3) else { return nil }
            size = Int(value)
        case 3:
            guard let value = reader.u32be(), reader.skip(1), let second = reader.u8() else { return nil }
            size = value
            format = second
        default:
            guard let raw = reader.take(4), reader.skip(1), let second = reader.u8() else { return nil }
            format = second
            size = frameSize24(raw, after: reader)
        }
        guard let data = reader.take(size) else { return nil }
        return Frame(id: id, format: format, data: data)
    }

    /// A v2.4 frame size is syncsafe, but some writers (old iTunes) stored it plain: take the
    /// plain reading when the syncsafe one is impossible or lands somewhere that is no frame.
    private static func frameSize24(_ raw: ArraySlice<UInt8>, after reader: ByteReader) -> Int {
        let plain = raw.reduce(0) { $0 << 8 | Int($1) }
        guard let safe = syncsafe(raw) else { return plain }
        guard safe != plain else { return safe }
        func landsWell(_ size: Int) -> Bool {
            guard size <= reader.remaining else { return false }
            var probe = reader
            probe.skip(size)
            guard let next = probe.take(min(4, probe.remaining)), !next.isEmpty else { return true }
            return next.first == 0 || (next.count == 4 && next.allSatisfy(isFrameIDByte))
        }
        if landsWell(safe) || !landsWell(plain) { return safe }
        return plain
    }

    private static func isFrameIDByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }

    private static func apply(_ id: String, _ data: ArraySlice<UInt8>, to tags: inout TrackTags,
                              pictures: inout PictureChoice, originalYear: inout Int?) {
        switch id {
        case "APIC", "PIC":
            if let (type, artwork) = picture(data, legacy: id == "PIC") { pictures.offer(artwork, type: type) }
            return
        default: break
        }
        guard id.hasPrefix("T"), let value = ID3Text.firstValue(ofTextFrame: data) else { return }
        switch id {
        case "TIT2", "TT2": tags.title = tags.title ?? value
        case "TPE1", "TP1": tags.artist = tags.artist ?? value
        case "TALB", "TAL": tags.album = tags.album ?? value
        case "TPE2", "TP2": tags.albumArtist = tags.albumArtist ?? value
        case "TRCK", "TRK": tags.trackNumber = tags.trackNumber ?? TagValue.leadingNumber(value)
        case "TPOS", "TPA": tags.discNumber = tags.discNumber ?? TagValue.leadingNumber(value)
        case "TYER", "TYE", "TDRC": tags.year = tags.year ?? TagValue.year(value)
        case "TDOR", "TORY", "TOR": originalYear = originalYear ?? TagValue.year(value)
        case "TCON", "TCO": tags.genre = tags.genre ?? ID3Genre.resolve(value)
        default: break
        }
    }

    /// An APIC (v2.3/2.4: MIME type) or PIC (v2.2: three-letter format) frame's picture type and image.
    private static func picture(_ data: ArraySlice<UInt8>, legacy: Bool) -> (UInt8, Artwork)? {
        var reader = ByteReader(data)
        guard let encoding = reader.u8() else { return nil }
        let mimeType: String
        if legacy {
            guard let format = reader.take(3) else { return nil }
            mimeType = TextDecoding.latin1(format).uppercased() == "PNG" ? "image/png" : "image/jpeg"
        } else {
            let (mime, rest) = ID3Text.terminated(reader.rest(), encoding: 0)
            reader = ByteReader(rest)
            mimeType = mime.lowercased() == "png" ? "image/png" : mime
        }
        guard let type = reader.u8() else { return nil }
        let (_, image) = ID3Text.terminated(reader.rest(), encoding: encoding)
        guard !image.isEmpty, image.count <= maxPicture else { return nil }
        return (type, Artwork(data: Array(image), mimeType: mimeType))
    }

    /// A 28-bit syncsafe integer from four bytes of seven bits each.
    static func syncsafe(_ bytes: ArraySlice<UInt8>?) -> Int? {
        guard let bytes, bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }

    /// Undoes unsynchronisation: every 0xFF 0x00 pair was 0xFF.
    static func removingUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { result.append(byte) }
            previous = byte
        }
        return result
    }
}
