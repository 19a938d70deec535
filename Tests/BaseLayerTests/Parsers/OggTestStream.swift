import Parsers

/// Builds Ogg pages by hand (with correct checksums) for inputs no encoder would write.
enum OggTestStream {
    /// One page per packet; the last page carries `lastGranule`. With `openLastPacket`, the last
    /// packet is left unfinished (its lacing ends in 255), as if it went on; with `endOfStream`,
    /// the last page has the end-of-stream flag, as a whole file's has.
    static func pages(_ packets: [[UInt8]], serial: UInt32, lastGranule: Int64, openLastPacket: Bool = false,
                      endOfStream: Bool = false) -> [UInt8] {
        var file: [UInt8] = []
        for (index, packet) in packets.enumerated() {
            let isLast = index == packets.count - 1
            var lacing = [UInt8](repeating: 255, count: packet.count / 255)
            if !(isLast && openLastPacket) { lacing.append(UInt8(packet.count % 255)) }
            let granule = isLast ? lastGranule : 0
            var page = Array("OggS".utf8) + [0, (index == 0 ? 2 : 0) | (isLast && endOfStream ? 4 : 0)]
            page += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> (8 * UInt64($0))) }
            page += (0..<4).map { UInt8(truncatingIfNeeded: serial >> (8 * UInt32($0))) }
            page += (0..<4).map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }
            page += [0, 0, 0, 0, UInt8(lacing.count)] + lacing + packet
            let crc = OggCRC.checksum(page[...], zeroing: 22..<26)
            for byte in 0..<4 { page[22 + byte] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(byte))) }
            file += page
        }
        return file
    }
}
