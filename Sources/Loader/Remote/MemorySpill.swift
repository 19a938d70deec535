import Cache

/// Bytes of a remote file that the disk refused (full, or over quota): playback goes on from
/// memory, within a budget that keeps what lies ahead of the slowest reader.
struct MemorySpill {
    /// Bytes kept before the oldest are dropped: enough to play on, not enough to fill memory.
    static let budget: Int64 = 64 << 20
    /// What trimming keeps behind the slowest reader: a short step back is still served.
    static let keptBehind: Int64 = 1 << 20

    /// Set once the disk refused a write or a commit: every later byte comes here, and the
    /// cache entry keeps serving what it recorded but takes nothing more.
    private(set) var diskRefused = false
    /// The bytes, by the offset they start at: one piece per write that the disk refused.
    private var pieces: [Int64: [UInt8]] = [:]
    /// Which bytes `pieces` holds: what readers and the planner count as here.
    private(set) var ranges = ByteRanges()

    mutating func refuseDisk() {
        diskRefused = true
    }

    /// Keeps `bytes` at `offset`. Over the budget, drops the pieces that end well behind
    /// `slowest` (where the slowest reader is; nil: nobody reads, nothing is dropped).
    mutating func keep(_ bytes: [UInt8], at offset: Int64, slowest: Int64?) {
        if let kept = pieces[offset], kept.count >= bytes.count { return }
        pieces[offset] = bytes
        ranges.insert(offset..<(offset + Int64(bytes.count)))
        guard ranges.count > Self.budget, let slowest else { return }
        for (start, piece) in pieces where start + Int64(piece.count) < slowest - Self.keptBehind {
            pieces[start] = nil
        }
        ranges = ByteRanges(pieces.map { $0.key..<($0.key + Int64($0.value.count)) })
    }

    /// Copies kept bytes at `offset` into `buffer`: how many, 0 if the byte there is not kept.
    func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
        guard ranges.presentRun(from: offset) > 0,
              let (start, bytes) = pieces.first(where: { $0.key <= offset && offset < $0.key + Int64($0.value.count) }) else { return 0 }
        let from = Int(offset - start)
        let count = min(buffer.count, bytes.count - from)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + from, byteCount: count) }
        return count
    }
}
