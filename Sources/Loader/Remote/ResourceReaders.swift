/// Where the readers of a `RemoteResource` are: what each blocks on, where each read last, and
/// where each one's run of contiguous reads began — what read-ahead is planned from.
///
/// A value kept under the resource's lock, as `ResourceWaiters` and `MemorySpill` are.
struct ResourceReaders {
    /// Readers attached now.
    private(set) var count = 0
    private var lastID = 0
    /// Offsets readers are blocked on, by reader.
    private(set) var demands: [Int: Int64] = [:]
    /// Where each reader read last: memory-only caching keeps what lies ahead of the slowest.
    private(set) var positions: [Int: Int64] = [:]
    /// Where each reader's run of contiguous reads began: read-ahead follows a long run only.
    private var runStarts: [Int: Int64] = [:]

    /// A new reader; its id.
    mutating func attach() -> Int {
        count += 1
        lastID += 1
        return lastID
    }

    mutating func detach(_ reader: Int) {
        count -= 1
        demands[reader] = nil
        positions[reader] = nil
        runStarts[reader] = nil
    }

    /// `reader` read `copied` bytes at `offset`; true when read-ahead should be planned again:
    /// the run turned into playback, or it moved on (a window ahead of it moves with it).
    mutating func read(_ reader: Int, at offset: Int64, copied: Int) -> Bool {
        demands[reader] = nil
        // A read within the run so far goes on with it (decoders reread a little); anywhere
        // else starts a new one.
        if let start = runStarts[reader], let position = positions[reader], start <= offset, offset <= position {} else {
            runStarts[reader] = offset
        }
        let before = positions[reader] ?? offset
        let end = offset + Int64(copied)
        positions[reader] = end
        let start = runStarts[reader]!
        return (before - start < ReadAheadPlanner.settledRun && end - start >= ReadAheadPlanner.settledRun)
            || before / ReadAheadPlanner.largestChunk != end / ReadAheadPlanner.largestChunk
    }

    /// `reader` waits for the byte at `offset`; true if that is news (the loader should plan).
    mutating func demand(_ reader: Int, at offset: Int64) -> Bool {
        guard demands[reader] != offset else { return false }
        demands[reader] = offset
        return true
    }

    /// `reader` no longer waits (it gave up, or failed).
    mutating func stopWaiting(_ reader: Int) {
        demands[reader] = nil
    }

    /// Nobody waits for bytes of the old version any more (the file changed).
    mutating func forgetDemands() {
        demands = [:]
    }

    /// Each reader's run so far.
    var runs: [Range<Int64>] {
        runStarts.compactMap { reader, start in positions[reader].map { start..<max(start, $0) } }
    }

    /// Where the slowest reader is (or waits); nil: nobody reads.
    var slowest: Int64? {
        positions.values.min() ?? demands.values.min()
    }
}
