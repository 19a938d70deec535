import Model

/// Reads an ID3v2.2/2.3/2.4 tag into `TrackTags`. The tag may be cut short (a capped fetch):
/// frames that do not fit are ignored, and nothing in the tag can make it trap or allocate more
/// than the tag's own bytes. `ID3v2RangedReader` walks the same frames through ranged reads.
package enum ID3v2Parser {
    static let headerSize = 10
    /// The largest picture kept; a bigger one is skipped.
    static let maxPicture = 16 * 1024 * 1024
    /// The largest `CHAP` or `CTOC` frame read without its picture: titles and the like.
    static let maxChapterFrame = 64 * 1024

    /// What a tag's 10-byte header says.
    struct TagHeader {
        var major: UInt8
        var flags: UInt8
        /// Bytes after the header up to the end of the frames and padding (no footer).
        var bodySize: Int

        /// Header, frames, padding and footer.
        var total: Int { headerSize + bodySize + (major == 4 && flags & 0x10 != 0 ? headerSize : 0) }
        var unsynchronised: Bool { flags & 0x80 != 0 }
        var hasExtendedHeader: Bool { major >= 3 && flags & 0x40 != 0 }
        /// v2.2's flag 0x40 is compression, never specified: such a tag cannot be read.
        var isReadable: Bool { !(major == 2 && flags & 0x40 != 0) }
        /// Whether frame sizes are file offsets: not under v2.2/2.3's whole-tag unsynchronisation,
        /// where they count the bytes with the escapes taken out.
        var framesMapToFile: Bool { major == 4 || !unsynchronised }
    }

    static func header(_ bytes: ArraySlice<UInt8>) -> TagHeader? {
        var reader = ByteReader(bytes)
        guard reader.take(3)?.elementsEqual("ID3".utf8) == true,
              let major = reader.u8(), (2...4).contains(major),
              let revision = reader.u8(), revision != 0xFF,
              let flags = reader.u8(),
              let size = syncsafe(reader.take(4)) else { return nil }
        return TagHeader(major: major, flags: flags, bodySize: size)
    }

    /// The tag's total size (header, frames, padding, footer) if `bytes` starts with a valid
    /// ID3v2 header, else nil.
    package static func tagSize(_ bytes: ArraySlice<UInt8>) -> Int? {
        header(bytes)?.total
    }

    /// The size of the extended header at the start of `body` (v2.3 gives its size without the
    /// size field, v2.4 with it, syncsafe); nil if it cannot be read.
    static func extendedHeaderSize(_ body: ArraySlice<UInt8>, major: UInt8) -> Int? {
        var reader = ByteReader(body)
        if major == 3 {
            guard let size = reader.u32be() else { return nil }
            return 4 + size
        }
        guard let size = syncsafe(reader.take(4)), size >= 4 else { return nil }
        return size
    }

    /// The tags in `bytes`, which start with the tag's header and may end before the tag does.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> TrackTags {
        collect(bytes)?.tags ?? TrackTags()
    }

    /// Every frame of the tag at the start of `bytes` gathered; nil if `bytes` do not start
    /// with a readable ID3v2 header. Frames cut off by the end of `bytes` are left out.
    static func collect(_ bytes: ArraySlice<UInt8>) -> FrameCollector? {
        guard let header = header(bytes), header.isReadable else { return nil }
        var frames = FrameCollector(major: header.major, unsynchronised: header.unsynchronised)
        let start = bytes.startIndex
        var body = bytes[(start + headerSize)..<(start + min(bytes.count, header.total))]
        if header.unsynchronised && header.major < 4 { body = removingUnsynchronisation(body)[...] }
        var reader = ByteReader(body)
        if header.hasExtendedHeader {
            guard let size = extendedHeaderSize(body, major: header.major), reader.skip(size) else { return frames }
        }
        while let frame = nextFrame(&reader, major: header.major) {
            frames.add(frame.header, frame.data)
        }
        return frames
    }

    /// A frame's 10-byte (v2.2: 6-byte) header.
    struct FrameHeader {
        var id: String
        var format: UInt8
        /// The size as the version says it is written.
        var size: Int
        /// v2.4 only: the plain big-endian reading of the size when it differs from the
        /// syncsafe one, which old iTunes wrote (nil when only one reading is possible).
        var otherSize: Int?

        static func length(major: UInt8) -> Int { major == 2 ? 6 : 10 }
    }

    /// The frame header at the start of `bytes`, or nil at padding or garbage.
    static func frameHeader(_ bytes: ArraySlice<UInt8>, major: UInt8) -> FrameHeader? {
        var reader = ByteReader(bytes)
        guard let idBytes = reader.take(major == 2 ? 3 : 4), idBytes.allSatisfy(isFrameIDByte) else { return nil }
        let id = String(decoding: idBytes, as: UTF8.self)
        switch major {
        case 2:
            guard let value = reader.bigEndian(3) else { return nil }
            return FrameHeader(id: id, format: 0, size: Int(value))
        case 3:
            guard let value = reader.u32be(), reader.skip(1), let format = reader.u8() else { return nil }
            return FrameHeader(id: id, format: format, size: value)
        default:
            guard let raw = reader.take(4), reader.skip(1), let format = reader.u8() else { return nil }
            let plain = raw.reduce(0) { $0 << 8 | Int($1) }
            guard let safe = syncsafe(raw) else { return FrameHeader(id: id, format: format, size: plain) }
            return FrameHeader(id: id, format: format, size: safe, otherSize: safe == plain ? nil : plain)
        }
    }

    /// Whether `bytes` (what follows a frame) look like the next frame header, padding, or the
    /// end of the frames: how a size reading is checked.
    static func isPlausibleNext(_ bytes: ArraySlice<UInt8>, major: UInt8) -> Bool {
        guard let first = bytes.first else { return true }
        if first == 0 { return true }
        let idLength = major == 2 ? 3 : 4
        return bytes.count >= idLength && bytes.prefix(idLength).allSatisfy(isFrameIDByte)
    }

    /// The next frame, or nil at padding, garbage, or the end of what was read.
    static func nextFrame(_ reader: inout ByteReader, major: UInt8) -> (header: FrameHeader, data: ArraySlice<UInt8>)? {
        let length = FrameHeader.length(major: major)
        guard let header = frameHeader(reader.bytes[(reader.bytes.startIndex + reader.offset)...], major: major),
              reader.skip(length) else { return nil }
        var size = header.size
        if let other = header.otherSize {
            // Prefer the syncsafe reading unless only the plain one lands on a frame.
            func landsWell(_ candidate: Int) -> Bool {
                guard candidate <= reader.remaining else { return false }
                let next = reader.bytes.dropFirst(reader.offset + candidate).prefix(4)
                return isPlausibleNext(next, major: major)
            }
            if !landsWell(size) && landsWell(other) { size = other }
        }
        guard let data = reader.take(size) else { return nil }
        return (header, data)
    }

    /// Whether a frame's body is worth fetching: text frames the tags use, pictures when
    /// `pictures` are wanted, chapters when `chapters` are (up to `maxChapterFrame`, or with a
    /// picture of its own when pictures are wanted). Anything else (pictures for a scan, lyrics,
    /// private data, objects) is skipped by its size.
    static func isWanted(_ header: FrameHeader, pictures: Bool, chapters: Bool) -> Bool {
        if header.id == "APIC" || header.id == "PIC" { return pictures && header.size <= maxPicture + 1024 }
        if header.id == "CHAP" || header.id == "CTOC" {
            return chapters && header.size <= (pictures ? maxPicture + maxChapterFrame : maxChapterFrame)
        }
        if header.id == "RVA2" || header.id == "UFID" || header.id == "UFI" { return header.size <= 1024 }
        if header.id == "COMM" || header.id == "COM" { return header.size <= TextDecoding.maxBytes + 64 }
        return header.id.hasPrefix("T") && header.size <= TextDecoding.maxBytes + 16
    }

    private static func isFrameIDByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
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
