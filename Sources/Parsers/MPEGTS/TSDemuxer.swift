/// Takes the audio (and ID3 timed metadata) out of an MPEG-2 transport stream, as HLS segments
/// are: 188-byte packets, the PAT and PMT to find the streams, PES packets reassembled across
/// packets. Bytes come in chunks of any size, so a packet may straddle two calls. Only the first
/// audio stream of the PMT is played; other streams are listed in `streams` and left alone.
///
/// Damage is survived, never trusted: lost sync is found again (a sync byte with another one
/// 188 bytes on), a continuity gap drops the PES it broke, and memory stays bounded (a PES is
/// capped at `PESAssembler.maxPacket`, bytes held between calls at under two packets).
package struct TSDemuxer: Sendable {
    /// ID3 streams handed out at most: each holds a PES buffer, and a program has one.
    static let maxMetadataStreams = 4

    /// Problems met (lost sync, continuity gaps, broken PES packets), for one warning line by
    /// the caller.
    package private(set) var damage = 0
    /// The elementary streams the PMT declared (once read), including those not played.
    package private(set) var streams: [TSStream] = []

    /// Bytes not yet taken as packets.
    private var pending: [UInt8] = []
    /// Whether `pending` starts at a packet boundary.
    private var synced = false
    /// Nothing taken since the start (or `finish()`): a sync byte first is believed at once.
    private var atStart = true
    private var pat = TSSectionAssembler()
    private var pmt = TSSectionAssembler()
    private var pmtPID: Int?
    /// The played audio stream's assembler, then the metadata streams'.
    private var assemblers: [PESAssembler] = []

    package init() {}

    /// Feeds any chunk of a transport stream (packets may straddle calls); returns the PES
    /// payloads completed by it, in stream order.
    package mutating func feed(_ bytes: ArraySlice<UInt8>) -> [TSPayload] {
        pending.append(contentsOf: bytes)
        var output: [TSPayload] = []
        var index = 0
        while index < pending.count {
            if synced {
                guard pending.count - index >= TSPacket.size else { break }
                if pending[index] == TSPacket.syncByte {
                    take(pending[index..<(index + TSPacket.size)], into: &output)
                    index += TSPacket.size
                    atStart = false
                    continue
                }
                synced = false
                damage += 1
            } else if atStart, index == 0, pending[0] == TSPacket.syncByte {
                synced = true
                continue
            } else if atStart, index == 0 {
                damage += 1  // leading garbage
                atStart = false
            }
            guard let found = syncPoint(from: index) else {
                index = pending.count
                break
            }
            index = found.index
            guard found.confirmed else { break }
            synced = true
        }
        pending.removeFirst(index)
        return output
    }

    /// Ends the stream (a segment's end): hands out the PES packets under way that are whole,
    /// counts a packet cut short as damage, and makes ready for the next segment (which starts
    /// anew but keeps the streams it knows until its own PMT says otherwise).
    package mutating func finish() -> [TSPayload] {
        var output: [TSPayload] = []
        if !pending.isEmpty { damage += 1 }
        for index in assemblers.indices {
            damage += assemblers[index].complete(into: &output)
            assemblers[index].reset()
        }
        pending = []
        synced = false
        atStart = true
        pat.reset()
        pmt.reset()
        return output
    }

    /// The next 0x47 at or after `index` and whether another one 188 bytes on confirms it
    /// (unconfirmed: the bytes to check have not come yet). Nil when there is no 0x47 at all.
    private func syncPoint(from index: Int) -> (index: Int, confirmed: Bool)? {
        var candidate = index
        while let found = pending[candidate...].firstIndex(of: TSPacket.syncByte) {
            let next = found + TSPacket.size
            guard next < pending.count else { return (found, false) }
            if pending[next] == TSPacket.syncByte { return (found, true) }
            candidate = found + 1
        }
        return nil
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>, into output: inout [TSPayload]) {
        guard let packet = TSPacket(bytes), !packet.transportError else {
            damage += 1
            return
        }
        if packet.pid == TSProgramTables.patPID {
            for section in pat.add(packet.payload, unitStart: packet.unitStart) {
                guard let pid = TSProgramTables.programMapPIDs(section)?.first, pid != pmtPID else { continue }
                pmtPID = pid
                pmt.reset()
            }
        } else if packet.pid == pmtPID {
            for section in pmt.add(packet.payload, unitStart: packet.unitStart) {
                if let declared = TSProgramTables.streams(section) { adopt(declared) }
            }
        } else if let index = assemblers.firstIndex(where: { $0.stream.pid == packet.pid }) {
            damage += assemblers[index].take(packet, into: &output)
        }
    }

    /// A PMT's streams: the first audio one and the first few ID3 ones get assemblers (those
    /// already gathering keep theirs). The same PMT again, as every segment repeats it, changes nothing.
    private mutating func adopt(_ declared: [TSStream]) {
        guard declared != streams else { return }
        streams = declared
        let audio = declared.first { $0.kind.isAudio }
        let metadata = declared.filter { $0.kind == .id3Metadata }.prefix(Self.maxMetadataStreams)
        let wanted = (audio.map { [$0] } ?? []) + metadata
        assemblers = wanted.map { stream in
            assemblers.first { $0.stream == stream } ?? PESAssembler(stream: stream)
        }
    }
}
