/// An ISO BMFF box header (ISO/IEC 14496-12 §4.2): a 32-bit size and a four-letter type, a
/// 64-bit size after them when the 32-bit one is 1, and 0 for "to the end of the container".
package struct MP4Box: Sendable, Equatable {
    package var type: String
    /// Where the box starts, and where its body (after the header) starts and ends.
    package var start: Int64
    package var bodyStart: Int64
    package var end: Int64

    /// The header at the start of `bytes`, which sit at `offset` in a container ending at
    /// `containerEnd`; nil if `bytes` are too short for the header.
    package init?(_ bytes: ArraySlice<UInt8>, at offset: Int64, containerEnd: Int64) throws {
        var reader = ByteReader(bytes)
        guard let size32 = reader.u32be(), let type = reader.take(4) else { return nil }
        // ISO-8859-1, as Apple's item names need: "©nam" is A9 6E 61 6D.
        self.type = TextDecoding.latin1(type)
        start = offset
        var size = Int64(size32)
        var header: Int64 = 8
        if size32 == 1 {
            guard let size64 = reader.bigEndian(8) else { return nil }
            guard size64 <= UInt64(Int64.max) else { throw ParseError.malformed("a '\(self.type)' box of \(size64) bytes") }
            size = Int64(size64)
            header = 16
        } else if size32 == 0 {
            size = containerEnd - offset
        }
        guard size >= header else { throw ParseError.malformed("a '\(self.type)' box of \(size) bytes") }
        bodyStart = offset + header
        guard offset <= containerEnd, size <= containerEnd - offset else {
            throw ParseError.malformed("a '\(self.type)' box of \(size) bytes at \(offset), past its container's end at \(containerEnd)")
        }
        end = offset + size
    }

    /// The box's body in `bytes`, which sit at `offset` in the file (and hold the whole box).
    package func body(in bytes: ArraySlice<UInt8>, at offset: Int64) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + Int(bodyStart - offset))..<(bytes.startIndex + Int(end - offset))]
    }

    /// Where the children of a `meta` box whose body starts with `head` begin in that body: after
    /// a version and flags in MP4 (a full box), at once in some QuickTime files (a plain box,
    /// its first child a `hdlr`).
    package static func metaChildrenOffset(_ head: ArraySlice<UInt8>) -> Int {
        head.dropFirst(4).prefix(4).elementsEqual("hdlr".utf8) ? 0 : 4
    }

    /// The boxes in `bytes` (which sit at `offset`), one after another, up to `bytes`' end.
    package static func children(of bytes: ArraySlice<UInt8>, at offset: Int64) throws -> [MP4Box] {
        var boxes: [MP4Box] = []
        var position = offset
        let end = offset + Int64(bytes.count)
        while position + 8 <= end {
            let from = bytes.startIndex + Int(position - offset)
            guard let box = try MP4Box(bytes[from...], at: position, containerEnd: end) else { break }
            boxes.append(box)
            position = box.end
        }
        return boxes
    }
}
