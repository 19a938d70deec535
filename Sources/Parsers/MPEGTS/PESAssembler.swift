/// Gathers one elementary stream's PES packets from the payloads of its transport packets,
/// watching the continuity counter: a packet lost on the way would splice two halves of
/// different frames, so a gap drops the PES under way instead.
struct PESAssembler: Sendable {
    /// The largest PES kept: an audio PES holds a fraction of a second, an ID3 tag a title and
    /// perhaps a small picture. A bigger one is dropped rather than held.
    static let maxPacket = 1 << 20

    let stream: TSStream
    /// The PES under way, from its start code; nil between packets (after one ended by its
    /// declared length, after damage, before the first start).
    private var buffer: [UInt8]?
    private var lastContinuity: UInt8?

    init(stream: TSStream) { self.stream = stream }

    /// Takes one of the stream's packets; appends the PES packets it completed to `output` and
    /// returns the problems it met (continuity gaps, broken or oversized PES packets).
    mutating func take(_ packet: TSPacket, into output: inout [TSPayload]) -> Int {
        guard packet.hasPayload, !packet.scrambled else { return 0 }
        var damage = 0
        if let last = lastContinuity, !packet.discontinuity {
            // The same counter again is a duplicate packet, which the standard allows once.
            if packet.continuity == last { return 0 }
            if packet.continuity != (last &+ 1) & 0x0F {
                damage += 1
                buffer = nil
            }
        }
        lastContinuity = packet.continuity
        if packet.unitStart {
            damage += complete(into: &output)
            buffer = []
        }
        guard var pes = buffer else { return damage }
        buffer = nil  // held uniquely while appending
        guard pes.count + packet.payload.count <= Self.maxPacket else { return damage + 1 }
        pes.append(contentsOf: packet.payload)
        if pes.count >= 3, !pes.starts(with: [0, 0, 1]) { return damage + 1 }
        buffer = pes
        if let total = declaredTotal(pes), pes.count >= total { damage += complete(into: &output) }
        return damage
    }

    /// Hands out the PES under way, if it is whole: one with a declared length must have all
    /// of it; an unbounded one ends here. Returns 1 for a PES cut short or broken, else 0.
    mutating func complete(into output: inout [TSPayload]) -> Int {
        guard let pes = buffer else { return 0 }
        buffer = nil
        guard let header = PESHeader(pes[...]) else { return 1 }
        var end = pes.count
        if header.packetLength > 0 {
            end = PESHeader.fixedLength + header.packetLength
            guard pes.count >= end else { return 1 }
        }
        if header.length < end {
            output.append(TSPayload(kind: stream.kind, pid: stream.pid, pts: header.pts, bytes: Array(pes[header.length..<end])))
        }
        return 0
    }

    /// Forgets the PES under way and the continuity counter (a new segment).
    mutating func reset() {
        buffer = nil
        lastContinuity = nil
    }

    /// The PES packet's whole size when its header declares one.
    private func declaredTotal(_ pes: [UInt8]) -> Int? {
        guard pes.count >= PESHeader.fixedLength else { return nil }
        let length = Int(pes[4]) << 8 | Int(pes[5])
        return length > 0 ? PESHeader.fixedLength + length : nil
    }
}
