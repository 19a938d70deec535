/// Collects the first packets of an Ogg stream (Opus's two header packets) from pages read from
/// the file's start, packets that span pages included. It reports when the buffer ends too soon,
/// so the caller can fetch more, and stops growing a packet at a cap.
package enum OggPacketReader {
    enum Outcome {
        /// The first `count` packets of the first stream, with its serial number. The last one is
        /// cut short at the cap if `truncated`.
        case packets([[UInt8]], serial: UInt32, truncated: Bool)
        /// The buffer ends before they are complete.
        case needsMore
        case invalid(String)
    }

    /// The first `count` packets of the stream whose first page starts `bytes`. `isWholeFile`
    /// says no more bytes exist, so running out is an error, not a reason to fetch.
    static func firstPackets(_ bytes: ArraySlice<UInt8>, count: Int, maxPacket: Int, isWholeFile: Bool) -> Outcome {
        var packets: [[UInt8]] = []
        var partial: [UInt8] = []
        var inPacket = false
        var serial: UInt32?
        var offset = bytes.startIndex
        while packets.count < count {
            switch OggPage.read(bytes, at: offset) {
            case .invalid:
                return offset == bytes.endIndex && !isWholeFile ? .needsMore
                    : .invalid(offset == bytes.endIndex ? "the file ends inside its header packets" : "a broken Ogg page")
            case .truncated:
                return isWholeFile ? .invalid("the file ends inside an Ogg page") : .needsMore
            case .page(let page):
                offset = page.end
                if serial == nil { serial = page.serial }
                guard page.serial == serial else { continue }  // another stream's page
                if page.continuesPacket != inPacket {
                    // A continuation without a start, or a start where one was expected to go on.
                    return .invalid("Ogg packets that do not join up")
                }
                var position = page.body.lowerBound
                for value in page.lacing {
                    let size = Int(value)
                    if partial.count < maxPacket {
                        let end = min(position + size, page.body.upperBound)
                        partial.append(contentsOf: bytes[position..<end].prefix(maxPacket - partial.count))
                    }
                    position += size
                    inPacket = true
                    if value < 255 {
                        packets.append(partial)
                        partial = []
                        inPacket = false
                        if packets.count == count { break }
                    }
                }
                if inPacket && partial.count >= maxPacket, let serial {
                    return .packets(packets + [partial], serial: serial, truncated: true)
                }
            }
        }
        guard let serial else { return .invalid("no Ogg page") }
        return .packets(packets, serial: serial, truncated: false)
    }
}
