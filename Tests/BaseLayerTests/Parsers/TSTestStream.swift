/// Builds MPEG transport streams by hand for what ffmpeg does not write (ID3 timed metadata,
/// declared-but-absent streams): packets, PAT and PMT sections with their CRC, PES packets.
enum TSTestStream {
    /// One PMT entry: stream_type, PID, descriptors.
    struct Entry {
        var type: UInt8
        var pid: Int
        var descriptors: [UInt8] = []
    }

    static let pmtPID = 0x1000

    /// The descriptors an HLS muxer puts on an ID3 stream: registration "ID3 ", then a metadata
    /// descriptor (application format 0xFFFF "ID3 ", format 0xFF "ID3 ", service id, flags).
    static let id3Descriptors: [UInt8] = [0x05, 4] + Array("ID3 ".utf8)
        + [0x26, 13, 0xFF, 0xFF] + Array("ID3 ".utf8) + [0xFF] + Array("ID3 ".utf8) + [0, 0x0F]

    /// PAT and PMT packets for one program with `entries`.
    static func tables(_ entries: [Entry]) -> [UInt8] {
        let pat = section(table: 0x00, id: 1, body: [0x00, 0x01, 0xE0 | UInt8(pmtPID >> 8), UInt8(pmtPID & 0xFF)])
        var pmtBody: [UInt8] = [0xE1, 0x00, 0xF0, 0x00]  // PCR PID 0x100, no program descriptors
        for entry in entries {
            pmtBody += [entry.type, 0xE0 | UInt8(entry.pid >> 8), UInt8(entry.pid & 0xFF),
                        0xF0 | UInt8(entry.descriptors.count >> 8), UInt8(entry.descriptors.count & 0xFF)] + entry.descriptors
        }
        let pmt = section(table: 0x02, id: 1, body: pmtBody)
        return packets(pid: 0, payload: [0] + pat, continuity: 0) + packets(pid: pmtPID, payload: [0] + pmt, continuity: 0)
    }

    /// A long-form section with its CRC-32 (computed bit by bit here, not with the parser's table).
    static func section(table: UInt8, id: Int, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        var bytes: [UInt8] = [table, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), UInt8(id >> 8), UInt8(id & 0xFF), 0xC1, 0, 0] + body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }

    /// A PES packet: stream id, the PTS if given, `declaresLength` or PES_packet_length 0.
    static func pes(streamID: UInt8, pts: Int64?, payload: [UInt8], declaresLength: Bool = true) -> [UInt8] {
        var header: [UInt8] = [0x80, pts == nil ? 0 : 0x80, pts == nil ? 0 : 5]
        if let pts {
            header += [0x21 | UInt8(pts >> 29 & 0x0E), UInt8(pts >> 22 & 0xFF), UInt8(pts >> 14 & 0xFE) | 1,
                       UInt8(pts >> 7 & 0xFF), UInt8(pts << 1 & 0xFE) | 1]
        }
        let length = declaresLength ? header.count + payload.count : 0
        return [0, 0, 1, streamID, UInt8(length >> 8), UInt8(length & 0xFF)] + header + payload
    }

    /// `payload` cut into packets of `pid`, the first with payload_unit_start_indicator, the last
    /// padded by an adaptation field of stuffing.
    static func packets(pid: Int, payload: [UInt8], continuity: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = payload[...]
        var counter = continuity
        repeat {
            let chunk = rest.prefix(184)
            rest = rest.dropFirst(chunk.count)
            let start: UInt8 = bytes.isEmpty ? 0x40 : 0
            let stuffing = 184 - chunk.count
            bytes += [0x47, start | UInt8(pid >> 8), UInt8(pid & 0xFF), (stuffing > 0 ? 0x30 : 0x10) | UInt8(counter & 0x0F)]
            if stuffing > 0 {
                bytes.append(UInt8(stuffing - 1))
                if stuffing > 1 { bytes += [0x00] + [UInt8](repeating: 0xFF, count: stuffing - 2) }
            }
            bytes += chunk
            counter += 1
        } while !rest.isEmpty
        return bytes
    }
}
