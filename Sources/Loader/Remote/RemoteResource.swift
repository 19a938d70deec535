import Base
import Cache
import FoundationEssentials
import Model

/// One remote file, shared by everyone who reads it: its cache entry, the downloads in flight,
/// and the readers waiting for bytes.
///
/// Readers are decoder threads and block here; downloads run on the loader's thread and write
/// here. One lock (with its condition) guards it all. This file keeps the state, the cache entry
/// it opens with, and what others ask of it; each extension is one side: readers and waiters
/// (`+Reading`), and downloads — what to fetch next, what answers say of the file, the bytes
/// they bring (`+Downloads`). The rest are values kept under the lock: `ReadAheadPlanner`, the
/// one place that decides what to download next; `ResourceReaders`, where each reader is;
/// `MemorySpill`, the bytes the disk refused; `ResourceWaiters`, the async callers waiting for
/// the length or for bytes. Chunks are never cancelled — a chunk that no longer serves a reader
/// finishes its hole — so no byte is downloaded twice, not even what was in flight when the
/// listener jumped.
package final class RemoteResource: @unchecked Sendable {
    static let commitEvery: Int64 = 512 << 10
    static let commitAfter = Duration.milliseconds(500)
    /// What a prefetch of the next track fetches: its head, and the tail decoders peek at.
    package static let prefetchHead: Int64 = 256 << 10
    package static let prefetchTail: Int64 = 64 << 10
    /// A read that waits longer than this is reported as buffering (short waits are normal).
    static let bufferingAfter = 0.3

    let location: TrackLocation
    let input: any RemoteInput
    /// Servers seen to ignore `Range`, shared by every resource.
    let wholeFileServers: WholeFileServers
    let name: String
    let check: String
    let cache: SparseCache
    /// Where commits run (`LoaderActor.commitPool`).
    let commitPool: BlockingPool
    /// Asks the loader to run `plan()` and start what it returns.
    let wake: @Sendable (RemoteResource) -> Void

    let condition = ThreadCondition()
    // Everything below is guarded by `condition`: touched only inside `locked` (or `read`, which
    // holds it while it waits).
    var info: ResourceInfo?
    var entry: SparseCacheEntry?
    /// Bytes that could not go to disk (disk full): playback goes on from there.
    var spill = MemorySpill()
    var inFlight = ByteRanges()
    var fetches = 0
    var readers = ResourceReaders()
    /// Ranges to fetch even with no reader (a prefetch).
    var wanted = ByteRanges()
    /// Decides what to download next; remembers where read-ahead left off.
    var planner = ReadAheadPlanner()
    var failure: LoaderError?
    var waiters = ResourceWaiters()
    var uncommitted: Int64 = 0
    var lastCommit = ContinuousClock.now
    /// A commit is being performed on the `BlockingPool`; `commitAgain`: another was due meanwhile.
    var committing = false
    var commitAgain = false
    /// Open while no commit is in flight: opened and closed with `committing`, under the lock.
    let commitGate = AsyncGate()
    /// The cached copy is outdated: nothing more is recorded for it.
    var stale = false
    /// The first request (which learns length and version) is under way; it covers the head.
    var firstRequestPending = false
    /// Bumped when the server's file turns out to have changed.
    var generation = 0
    /// The first answer, when it was a live stream (`LoaderError.liveStream`): handed to the
    /// `LiveStream` that plays it, so a station is connected to once, not twice.
    var liveAnswer: (answer: HTTPAnswer, at: ContinuousClock.Instant)?

    /// `known`: what the server said of the file a moment ago (a folder listing), so no request
    /// is needed to learn it.
    init(location: TrackLocation, input: any RemoteInput, wholeFileServers: WholeFileServers, cache: SparseCache, commitPool: BlockingPool,
         known: ResourceInfo? = nil, wake: @escaping @Sendable (RemoteResource) -> Void) {
        self.location = location
        self.input = input
        self.wholeFileServers = wholeFileServers
        self.cache = cache
        self.commitPool = commitPool
        self.wake = wake
        (name, check) = SparseCache.identity(of: location.uri)
        let record = cache.stored(name: name)  // read once: the entry opens with it
        if let stored = record, stored.check == check,
           known.map({ $0.statesCopy(length: stored.length, validator: stored.validator) }) ?? true,
           let entry = try? cache.entry(name: name, check: check, length: stored.length, validator: stored.validator, stored: stored) {
            // Known from an earlier run: cached bytes are served at once, even offline. The listing
            // and the record are compared like with like (a listing's date with the date the
            // record keeps next to GET's tag; tags by the weak comparison).
            self.entry = entry
            let version = Validator(text: stored.validator)
            info = ResourceInfo(length: stored.length, validator: version?.text, ifRange: version?.ifRange)
        } else if let known {
            if record != nil { cache.remove(name: name) }  // an older version
            info = known
            entry = try? cache.entry(name: name, check: check, length: known.length, validator: known.validator ?? "", stored: nil)
        } else {
            firstRequestPending = true
        }
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: What others ask of it

    var currentInfo: ResourceInfo? { locked { info } }
    var version: Int { locked { generation } }
    /// Someone reads it or wants bytes of it: it stays, and stays in the cache.
    var isInUse: Bool { locked { readers.count > 0 || !wanted.isEmpty } }
    /// Someone reads it, or wants bytes that are not here yet: a whole-file stream (a server
    /// that ignores `Range`) goes on only while this holds.
    var needsBytes: Bool {
        locked { ReadAheadPlanner.Situation.needsBytes(readers: readers.count, wanted: wanted, readable: readableLocked) }
    }
    /// Nobody reads or wants it, nothing is downloading or being committed: it may be forgotten
    /// (a later open makes a new one from the cache record), and its entry evicted.
    var isIdle: Bool { locked { readers.count == 0 && wanted.isEmpty && fetches == 0 && !firstRequestPending && !committing } }
    /// The server has another version than the cached copy (`forgetCachedCopy`): whoever reads it
    /// reads on, but a new reader needs a new resource.
    var isStale: Bool { locked { stale } }
    /// Every byte is here, and the copy is not known to be outdated.
    var isComplete: Bool {
        locked { !stale && (info.map { entry?.isComplete == true || readableLocked.contains(0..<$0.length) } ?? false) }
    }

    /// Every byte of `range` is here (on disk or held in memory): reading it fetches nothing.
    func holds(_ range: Range<Int64>) -> Bool { locked { readableLocked.contains(range) } }

    /// Some of its bytes are here (on disk or held in memory), of the version known now.
    var hasBytes: Bool { locked { !stale && !readableLocked.isEmpty } }

    /// Bytes from `offset` on that are already here, for a download that restarts.
    func presentRun(from offset: Int64) -> Int64 {
        locked { readableLocked.presentRun(from: offset) }
    }

    /// Whether this file's server has been seen to ignore `Range`.
    var ignoresRanges: Bool { wholeFileServers.contains(server) }

    var server: String { input.name + " " + input.server(of: location) }

    /// The origin requests for it go to, whichever source they are made for: concurrency is
    /// limited per host.
    var host: String { input.server(of: location) }

    /// What is here: on disk, or held in memory. With the lock held.
    var readableLocked: ByteRanges {
        var all = entry?.readable ?? ByteRanges()
        for range in spill.ranges.ranges { all.insert(range) }
        return all
    }

    /// Copies bytes here at `offset`: how many, 0 if the byte there is not here. With the lock held.
    func copyLocked(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        if let entry, entry.available(from: offset) > 0 { return try entry.read(into: buffer, at: offset) }
        return spill.copy(into: buffer, at: offset)
    }
}
