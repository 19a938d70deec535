/// One 188-byte transport packet (ISO/IEC 13818-1 §2.4.3.2): its header, and its payload with
/// the adaptation field (clock references, stuffing) stepped over.
struct TSPacket {
    static let size = 188
    static let syncByte: UInt8 = 0x47
    static let nullPID = 0x1FFF

    var pid: Int
    /// payload_unit_start_indicator: a PES packet or a section (after its pointer field) starts here.
    var unitStart: Bool
    var continuity: UInt8
    /// Whether the packet has a payload; the continuity counter counts only those that do.
    var hasPayload: Bool
    /// The adaptation field's discontinuity_indicator: the continuity counter may jump here.
    var discontinuity: Bool
    /// transport_error_indicator: a demodulator found the packet damaged.
    var transportError: Bool
    /// transport_scrambling_control ≠ 0: the payload is encrypted at the transport level.
    var scrambled: Bool
    var payload: ArraySlice<UInt8>

    /// Nil unless `bytes` is a whole packet with a sync byte and an adaptation field that fits.
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count == Self.size, bytes.first == Self.syncByte else { return nil }
        let start = bytes.startIndex
        let flags = bytes[start + 1], low = bytes[start + 2], control = bytes[start + 3]
        transportError = flags & 0x80 != 0
        unitStart = flags & 0x40 != 0
        pid = Int(flags & 0x1F) << 8 | Int(low)
        scrambled = control >> 6 != 0
        let adaptation = control & 0x20 != 0
        hasPayload = control & 0x10 != 0
        continuity = control & 0x0F
        discontinuity = false
        var payloadStart = start + 4
        if adaptation {
            let length = Int(bytes[start + 4])
            guard 5 + length <= Self.size else { return nil }
            if length > 0 { discontinuity = bytes[start + 5] & 0x80 != 0 }
            payloadStart = start + 5 + length
        }
        payload = hasPayload ? bytes[payloadStart..<bytes.endIndex] : bytes[bytes.endIndex...]
    }
}
