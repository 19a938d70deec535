/// Gathers the PSI sections (PAT, PMT) of one PID: a section starts where a packet's pointer
/// field says, may run over several packets, and may be followed by another or by 0xFF stuffing.
struct TSSectionAssembler: Sendable {
    /// section_length is at most 1021 for PSI, so a section is at most 1024 bytes.
    static let maxSection = 1024

    /// Bytes from the start of the section being gathered.
    private var buffer: [UInt8] = []
    /// Whether a section start has been seen (bytes before the first one are a section's tail).
    private var gathering = false

    /// Takes one packet's payload; returns the sections it completed, whole (CRC unchecked).
    mutating func add(_ payload: ArraySlice<UInt8>, unitStart: Bool) -> [[UInt8]] {
        var sections: [[UInt8]] = []
        guard unitStart else {
            if gathering {
                buffer.append(contentsOf: payload)
                extract(into: &sections)
            }
            return sections
        }
        guard let pointer = payload.first else { return sections }
        let data = payload.dropFirst()
        if gathering {
            buffer.append(contentsOf: data.prefix(Int(pointer)))
            extract(into: &sections)
        }
        buffer = Array(data.dropFirst(Int(pointer)))
        gathering = true
        extract(into: &sections)
        return sections
    }

    /// Forgets a section under way (after lost packets).
    mutating func reset() {
        buffer = []
        gathering = false
    }

    private mutating func extract(into sections: inout [[UInt8]]) {
        while gathering, let tableID = buffer.first {
            // 0xFF where a table_id would be: stuffing to the end of the packet.
            guard tableID != 0xFF else { return reset() }
            guard buffer.count >= 3 else { return }
            let total = 3 + (Int(buffer[1] & 0x0F) << 8 | Int(buffer[2]))
            guard total <= Self.maxSection else { return reset() }
            guard buffer.count >= total else { return }
            sections.append(Array(buffer[0..<total]))
            buffer.removeFirst(total)
            // A section ending with the packet: the next starts in a packet with a pointer field.
            if buffer.isEmpty { gathering = false }
        }
    }
}
