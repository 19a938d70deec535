import Cache

/// What to download next of one remote file: a waiting reader's hole first, in a small chunk so
/// a seek answers at once; then read-ahead, in chunks that double while playback stays
/// sequential, ahead of where a reader plays on — never behind it, so resuming a long podcast
/// near its end does not download its beginning (unless the file is to be filled whole).
///
/// A value without locks or I/O, so the policy can be tuned and tested on its own:
/// `RemoteResource` describes the file to it under its lock and marks what it returns in flight.
package struct ReadAheadPlanner: Sendable {
    /// A chunk for a reader that jumped, and the first of a sequential run: small, so it
    /// answers soonest. The first request of a file asks for this much of the head too.
    package static let jumpChunk: Int64 = 64 << 10
    /// Where sequential chunks stop doubling: a chunk is never cancelled, so this bounds what
    /// one still fetches, beside a jump's chunk, for a place the listener has left.
    package static let largestChunk: Int64 = 2 << 20
    /// A reader's run of contiguous reads this long is playback: read-ahead follows it. Shorter
    /// runs are a decoder's head and tail reads and the probes of a bisecting seek, each at most
    /// one of the 64 KiB blocks decoders read in (`ByteCursor`); playback goes on to the next.
    package static let settledRun: Int64 = 96 << 10
    /// `[cache] read_ahead` by default: a file up to this size is read ahead to its end.
    package static let defaultReadAhead: Int64 = 64 << 20
    /// How far read-ahead reaches ahead of the playing position in a file larger than that.
    package static let window: Int64 = 16 << 20

    /// What the planner is told of the file, its downloads and its readers, as plain values.
    package struct Situation: Sendable {
        /// The file's length: nothing past it is planned.
        package var length: Int64
        /// Bytes that can be read now, from disk or memory: never fetched again.
        package var readable: ByteRanges
        /// Bytes the downloads under way will bring: never asked for twice.
        package var inFlight: ByteRanges
        /// The first request (which learns length and version) is under way: it brings the head,
        /// `0..<jumpChunk`, so the head is not planned again.
        package var firstRequestPending: Bool
        /// The server answers `Range` requests; if not, the only download is the whole file.
        package var acceptsRanges: Bool
        /// Downloads under way: read-ahead waits until there are none, so it runs one chunk at a
        /// time (a waiting reader does not wait for them); a whole-file stream starts only then too.
        package var fetches: Int
        /// Offsets readers are blocked on (one per waiting reader): each gets its hole first.
        package var demands: [Int64]
        /// Where each reader read last: memory-only read-ahead stays ahead of the slowest.
        package var positions: [Int64]
        /// Each reader's run of contiguous reads since it last jumped: one at least `settledRun`
        /// long plays on, and read-ahead fetches ahead of its end only.
        package var runs: [Range<Int64>]
        /// A file up to this long is read ahead to its end; a longer one `window` ahead.
        package var readAheadLimit: Int64
        /// Fill the whole file while it is read (a pinned track, `[cache] fill = "whole"`): read-ahead
        /// goes on from where it left off to the end, then around to the start.
        package var fillWhole: Bool
        /// Readers attached: while there are any, read-ahead goes on past what they wait for.
        package var readers: Int
        /// Ranges wanted with no reader (a prefetch, a scan's tag reads, a pinned file): fetched
        /// whole, once readers' read-ahead has nothing to do.
        package var wanted: ByteRanges
        /// The disk refused a write, so new bytes go to memory only: read-ahead stays within
        /// the memory budget ahead of the slowest reader.
        package var memoryOnly: Bool
        /// Bytes memory may hold of the file (read only when `memoryOnly`): read-ahead covers
        /// half of it, so read-ahead alone never fills it.
        package var memoryBudget: Int64

        package init(length: Int64, readable: ByteRanges = ByteRanges(), inFlight: ByteRanges = ByteRanges(),
                     firstRequestPending: Bool = false, acceptsRanges: Bool = true, fetches: Int = 0,
                     demands: [Int64] = [], positions: [Int64] = [], runs: [Range<Int64>] = [],
                     readAheadLimit: Int64 = ReadAheadPlanner.defaultReadAhead, fillWhole: Bool = false, readers: Int = 0,
                     wanted: ByteRanges = ByteRanges(), memoryOnly: Bool = false, memoryBudget: Int64 = 0) {
            self.length = length
            self.readable = readable
            self.inFlight = inFlight
            self.firstRequestPending = firstRequestPending
            self.acceptsRanges = acceptsRanges
            self.fetches = fetches
            self.demands = demands
            self.positions = positions
            self.runs = runs
            self.readAheadLimit = readAheadLimit
            self.fillWhole = fillWhole
            self.readers = readers
            self.wanted = wanted
            self.memoryOnly = memoryOnly
            self.memoryBudget = memoryBudget
        }

        /// Someone reads the file, or wants bytes of it that are not here yet: a whole-file
        /// stream starts, and goes on, only while this holds.
        package var needsBytes: Bool { Self.needsBytes(readers: readers, wanted: wanted, readable: readable) }

        /// The same from the values themselves: `RemoteResource.needsBytes` asks here too, so a
        /// whole-file stream is started and kept going by one rule.
        package static func needsBytes(readers: Int, wanted: ByteRanges, readable: ByteRanges) -> Bool {
            readers > 0 || wanted.ranges.contains { !readable.contains($0) }
        }
    }

    /// Where read-ahead left off (the end of the last chunk planned for a reader): a reader
    /// waiting here reads on sequentially, and read-ahead goes on from here.
    package private(set) var readAheadFrom: Int64 = 0
    /// The size of the next sequential chunk: it doubles with each one, up to `largestChunk`, so
    /// a track that plays on takes ever fewer requests; small again after a jump.
    package private(set) var sequentialChunk = jumpChunk

    package init() {}

    /// The file changed on the server: what was learnt of its readers no longer holds.
    package mutating func reset() {
        self = ReadAheadPlanner()
    }

    /// The chunks to download now, in order. The caller marks them in flight (each one fetch)
    /// before it asks again.
    package mutating func plan(_ file: Situation) -> [Range<Int64>] {
        let length = file.length
        var have = file.readable
        for range in file.inFlight.ranges { have.insert(range) }
        if file.firstRequestPending { have.insert(0..<min(Self.jumpChunk, length)) }
        guard !have.contains(0..<length) else { return [] }
        var chunks: [Range<Int64>] = []
        var fetches = file.fetches
        func claim(_ range: Range<Int64>) {
            have.insert(range)
            chunks.append(range)
            fetches += 1
        }
        if !file.acceptsRanges {
            // The server sends whole files only: one stream at a time, from the start.
            if fetches == 0, file.needsBytes { claim(0..<length) }
            return chunks
        }
        for offset in Set(file.demands).sorted() where offset < length {
            guard let hole = have.missing(in: offset..<length).first, hole.lowerBound == offset else { continue }
            // A reader waiting where read-ahead left off is sequential: chunks keep growing.
            // Anywhere else it jumped: a small chunk answers it soonest.
            let sequential = offset == readAheadFrom
            claim(offset..<min(offset + (sequential ? sequentialChunk : Self.jumpChunk), hole.upperBound))
            readAheadFrom = chunks.last!.upperBound
            sequentialChunk = sequential ? min(sequentialChunk * 2, Self.largestChunk) : Self.jumpChunk * 2
        }
        guard fetches == 0 else { return chunks }
        if file.readers > 0, let hole = readAheadHoles(file, have: have).first {
            claim(hole.lowerBound..<min(hole.lowerBound + sequentialChunk, hole.upperBound))
            readAheadFrom = chunks.last!.upperBound
            sequentialChunk = min(sequentialChunk * 2, Self.largestChunk)
        } else if let hole = file.wanted.ranges.lazy.flatMap({ have.missing(in: $0) }).first {
            // Wanted ranges (a prefetch, a pinned file) once read-ahead has nothing to do.
            claim(hole)
        }
        return chunks
    }

    /// The holes read-ahead may fill, nearest first.
    private func readAheadHoles(_ file: Situation, have: ByteRanges) -> [Range<Int64>] {
        let length = file.length
        if file.memoryOnly {
            // Bytes go to memory only: read ahead of the slowest reader, within the memory
            // budget, and never around to the start.
            let low = min(file.positions.min() ?? 0, length)
            return have.missing(in: low..<min(length, low + file.memoryBudget / 2))
        }
        if file.fillWhole {
            let from = min(readAheadFrom, length)
            return have.missing(in: from..<length) + have.missing(in: 0..<from)
        }
        // Ahead of each reader that plays on; what lies behind it nobody asked for.
        let playing = file.runs.filter { $0.count >= Self.settledRun }.map { min($0.upperBound, length) }.sorted()
        return playing.flatMap { position in
            have.missing(in: position..<(length <= file.readAheadLimit ? length : min(length, position + Self.window)))
        }
    }
}
