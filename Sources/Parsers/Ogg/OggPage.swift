/// One Ogg page, located in a buffer: the tag reader walks pages from the start to collect the
/// Opus header packets and from the end to find the last granule position; the decoder looks at
/// the last page to tell a whole stream from one cut short.
package struct OggPage {
    static let headerSize = 27
    /// Header, 255 lacing values, 255 × 255 bytes of body.
    static let maxSize = 27 + 255 + 255 * 255

    let headerType: UInt8
    let granulePosition: Int64
    let serial: UInt32
    let lacing: ArraySlice<UInt8>
    /// The page body's range in the buffer it was read from.
    let body: Range<Int>
    /// Where the next page would start in that buffer.
    var end: Int { body.upperBound }

    var continuesPacket: Bool { headerType & 0x01 != 0 }
    /// The stream's last page: a file whose last page lacks it was cut short.
    var endsStream: Bool { headerType & 0x04 != 0 }

    enum Outcome {
        case page(OggPage)
        /// The buffer ends inside the page (the page would need this many bytes from its start).
        case truncated(needed: Int)
        /// Not a page here (bad capture pattern, version or checksum).
        case invalid
    }

    /// Reads the page starting at `offset` in `bytes`.
    static func read(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Outcome {
        guard offset >= bytes.startIndex, offset <= bytes.endIndex else { return .invalid }
        var reader = ByteReader(bytes[offset...])
        guard reader.remaining >= headerSize else {
            let available = bytes[offset...]
            return "OggS".utf8.starts(with: available) ? .truncated(needed: headerSize) : .invalid
        }
        guard reader.take(4)?.elementsEqual("OggS".utf8) == true, reader.u8() == 0,
              let type = reader.u8(), let granule = reader.littleEndian(8),
              let serial = reader.littleEndian(4), reader.skip(4), let storedCRC = reader.littleEndian(4),
              let count = reader.u8() else { return .invalid }
        guard let lacing = reader.take(Int(count)) else {
            return .truncated(needed: headerSize + Int(count))
        }
        let bodySize = lacing.reduce(0) { $0 + Int($1) }
        let bodyStart = offset + headerSize + Int(count)
        guard bodyStart + bodySize <= bytes.endIndex else {
            return .truncated(needed: headerSize + Int(count) + bodySize)
        }
        let whole = bytes[offset..<(bodyStart + bodySize)]
        guard OggCRC.checksum(whole, zeroing: (offset + 22)..<(offset + 26)) == UInt32(storedCRC) else { return .invalid }
        return .page(OggPage(headerType: type, granulePosition: Int64(bitPattern: granule), serial: UInt32(serial),
                             lacing: lacing, body: bodyStart..<(bodyStart + bodySize)))
    }

    /// The granule position of the last complete, valid page of stream `serial` in `bytes` that
    /// has one (a page where no packet ends carries −1; any other negative value is forged, and
    /// arithmetic on it could overflow).
    static func lastGranule(in bytes: ArraySlice<UInt8>, serial: UInt32) -> Int64? {
        last(in: bytes) { $0.serial == serial && $0.granulePosition >= 0 }?.granulePosition
    }

    /// The last complete page in `bytes` whose checksum holds and that `accept` takes, searching
    /// back from the end. At most `maxCandidates` look-alike pages are checksummed, so a tail
    /// crafted full of "OggS" cannot make the search quadratic.
    static func last(in bytes: ArraySlice<UInt8>, maxCandidates: Int = 64, where accept: (OggPage) -> Bool) -> OggPage? {
        var position = bytes.endIndex - headerSize
        var candidates = 0
        while position >= bytes.startIndex, candidates < maxCandidates {
            defer { position -= 1 }
            guard bytes[position] == 0x4F, bytes[position + 1] == 0x67, bytes[position + 2] == 0x67,
                  bytes[position + 3] == 0x53 else { continue }
            candidates += 1
            guard case .page(let page) = read(bytes, at: position), accept(page) else { continue }
            return page
        }
        return nil
    }
}
