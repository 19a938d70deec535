/// Where an Ogg stream's audio begins: past its header packets — an Opus stream's `OpusHead` and
/// `OpusTags`, whose cover picture can be megabytes. The header pages are those whose granule
/// position is 0 (RFC 7845 §3: the pages that end the header packets carry 0) or −1 (a page in
/// which no packet ends: a header packet running on); the first page with a positive one ends
/// audio. Only the pages' heads are read (27 bytes and the lacing), never their bodies.
package enum OggAudioStart {
    /// Pages walked at most: a 1 MB cover takes about 16 (64 KiB each).
    static let maxHeaderPages = 1024

    /// The offset of the first audio page, reading the stream's bytes with `read(offset, count)`
    /// (which may return fewer at the end); nil if the pages from the start do not say (not Ogg
    /// there, damaged, or headers without end).
    package static func offset(reading read: (Int64, Int) throws -> [UInt8]) rethrows -> Int64? {
        var offset: Int64 = 0
        for _ in 0..<maxHeaderPages {
            let head = try read(offset, OggPage.headerSize)
            guard head.count == OggPage.headerSize, head.starts(with: "OggS".utf8) else { return nil }
            let granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(head[6 + $1]) << (8 * UInt64($1)) }
            if Int64(bitPattern: granule) > 0 { return offset }
            let segments = Int(head[26])
            let lacing = try read(offset + Int64(OggPage.headerSize), segments)
            guard lacing.count == segments else { return nil }
            offset += Int64(OggPage.headerSize + segments + lacing.reduce(0) { $0 + Int($1) })
        }
        return nil
    }
}
