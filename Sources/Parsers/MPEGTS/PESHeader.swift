/// The header of a PES packet (ISO/IEC 13818-1 §2.4.3.6): start code 00 00 01, stream id,
/// PES_packet_length, and for audio and video an optional header with the PTS (and DTS).
struct PESHeader {
    /// Start code, stream id and PES_packet_length.
    static let fixedLength = 6

    var streamID: UInt8
    /// Bytes after the fixed part; 0 means "unbounded" (allowed for video, some muxers use it
    /// for audio too): the packet then ends where the next one starts.
    var packetLength: Int
    /// In 90 kHz ticks.
    var pts: Int64?
    /// Bytes from the packet's start to its payload.
    var length: Int

    /// Nil without a start code, or with an optional header that does not fit.
    init?(_ bytes: ArraySlice<UInt8>) {
        var reader = ByteReader(bytes)
        guard reader.bigEndian(3) == 1, let streamID = reader.u8(), let packetLength = reader.bigEndian(2) else { return nil }
        self.streamID = streamID
        self.packetLength = Int(packetLength)
        pts = nil
        length = Self.fixedLength
        guard Self.hasOptionalHeader(streamID) else { return }
        guard let marker = reader.u8(), marker & 0xC0 == 0x80, let flags = reader.u8(),
              let dataLength = reader.u8(), let data = reader.take(Int(dataLength)) else { return nil }
        length = Self.fixedLength + 3 + Int(dataLength)
        guard packetLength == 0 || length <= Self.fixedLength + Int(packetLength) else { return nil }
        // PTS_DTS_flags 10 (PTS) or 11 (PTS and DTS): the PTS comes first either way.
        if flags & 0x80 != 0 { pts = Self.timestamp(data.prefix(5)) }
    }

    /// program_stream_map, padding, private_stream_2, ECM, EMM, DSMCC, H.222.1 type E and the
    /// directory have no optional header.
    private static func hasOptionalHeader(_ streamID: UInt8) -> Bool {
        ![0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF].contains(streamID)
    }

    /// A 33-bit time stamp in five bytes: 4 bits of prefix, then 3, 15 and 15 bits, each group
    /// closed by a marker bit of 1. Nil if a marker is 0 (the bytes are not a time stamp).
    static func timestamp(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard bytes.count == 5 else { return nil }
        let b = Array(bytes)
        guard b[0] & 1 == 1, b[2] & 1 == 1, b[4] & 1 == 1 else { return nil }
        let high = Int64(b[0] >> 1 & 0x07) << 30
        let middle = (Int64(b[1]) << 7 | Int64(b[2] >> 1)) << 15
        return high | middle | (Int64(b[3]) << 7 | Int64(b[4] >> 1))
    }
}
