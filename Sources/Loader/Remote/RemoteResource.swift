import Cache
import Foundation
import Model

/// One remote file, shared by everyone who reads it: its cache entry, the downloads in flight,
/// and the readers waiting for bytes.
///
/// Readers are decoder threads and block here; downloads run on the loader's thread and write
/// here. One lock (with its condition) guards it all. This class keeps the cache entry and when
/// to commit it, the blocking reads, and the change to a new version (`establish`); the rest are
/// values it keeps under the lock: `ReadAheadPlanner`, the one place that decides what to
/// download next (`plan()`); `MemorySpill`, the bytes the disk refused; `ResourceWaiters`, the
/// async callers waiting for the length or for bytes. Chunks are never cancelled — a chunk that
/// no longer serves a reader finishes its hole — so no byte is downloaded twice, not even what
/// was in flight when the listener jumped.
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
    private let wholeFileServers: WholeFileServers
    let name: String
    let check: String
    private let cache: SparseCache
    /// Asks the loader to run `plan()` and start what it returns.
    private let wake: @Sendable (RemoteResource) -> Void

    private let condition = NSCondition()
    // Everything below is guarded by `condition`.
    private var info: ResourceInfo?
    private var entry: SparseCacheEntry?
    /// Bytes that could not go to disk (disk full): playback goes on from there.
    private var spill = MemorySpill()
    private var inFlight = ByteRanges()
    private var fetches = 0
    /// Offsets readers are blocked on, by reader.
    private var demands: [Int: Int64] = [:]
    /// Where each reader read last: memory-only caching keeps what lies ahead of the slowest.
    private var positions: [Int: Int64] = [:]
    /// Where each reader's run of contiguous reads began: read-ahead follows a long run only.
    private var runStarts: [Int: Int64] = [:]
    private var readers = 0
    private var nextReader = 0
    /// Ranges to fetch even with no reader (a prefetch).
    private var wanted = ByteRanges()
    /// Decides what to download next; remembers where read-ahead left off.
    private var planner = ReadAheadPlanner()
    private var failure: LoaderError?
    private var waiters = ResourceWaiters()
    private var uncommitted: Int64 = 0
    private var lastCommit = ContinuousClock.now
    /// The cached copy is outdated: nothing more is recorded for it.
    private var stale = false
    /// The first request (which learns length and version) is under way; it covers the head.
    private var firstRequestPending = false
    /// Bumped when the server's file turns out to have changed.
    private var generation = 0

    /// `known`: what the server said of the file a moment ago (a folder listing), so no request
    /// is needed to learn it.
    init(location: TrackLocation, input: any RemoteInput, wholeFileServers: WholeFileServers, cache: SparseCache,
         known: ResourceInfo? = nil, wake: @escaping @Sendable (RemoteResource) -> Void) {
        self.location = location
        self.input = input
        self.wholeFileServers = wholeFileServers
        self.cache = cache
        self.wake = wake
        (name, check) = SparseCache.identity(of: location.uri)
        let record = cache.stored(name: name)  // read once: the entry opens with it
        if let stored = record, stored.check == check,
           known.map({ $0.length == stored.length && Validator.cachedCopyIsCurrent(listed: $0.validator, recorded: stored.validator) }) ?? true,
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

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Readers

    var currentInfo: ResourceInfo? { locked { info } }
    var version: Int { locked { generation } }
    /// Someone reads it or wants bytes of it: it stays, and stays in the cache.
    var isInUse: Bool { locked { readers > 0 || !wanted.isEmpty } }
    /// Someone reads it, or wants bytes that are not here yet: a whole-file stream (a server
    /// that ignores `Range`) goes on only while this holds.
    var needsBytes: Bool { locked { needsBytesLocked } }
    private var needsBytesLocked: Bool {
        ReadAheadPlanner.Situation.needsBytes(readers: readers, wanted: wanted, readable: readableLocked)
    }
    /// Nobody reads or wants it and nothing is downloading: it may be forgotten (a later open
    /// makes a new one from the cache record).
    var isIdle: Bool { locked { readers == 0 && wanted.isEmpty && fetches == 0 && !firstRequestPending } }
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

    /// Waits until the length and version are known (from the cache or the first answer); a
    /// cancelled task stops waiting at once (`LoaderError.cancelled`).
    func waitForInfo() async throws {
        let id = locked { waiters.nextInfoWaiter() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = locked {
                    if info != nil { return .success(()) }
                    if let failure { return .failure(failure) }
                    if Task.isCancelled { return .failure(LoaderError.cancelled) }
                    waiters.waitForInfo(id, waiter)
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            locked { waiters.removeInfoWaiter(id) }?.resume(throwing: LoaderError.cancelled)
        }
    }

    /// Registers a reader; the resource is in use (not evicted) and read ahead while it has any.
    func attach() -> Int {
        let id = locked {
            readers += 1
            nextReader += 1
            failure = nil  // a new reader tries again after a failure
            return nextReader
        }
        wake(self)
        return id
    }

    func detach(_ reader: Int) {
        locked {
            readers -= 1
            demands[reader] = nil
            positions[reader] = nil
            runStarts[reader] = nil
        }
    }

    /// Marks head and tail as wanted without a reader.
    func prefetch() {
        locked {
            guard let length = info?.length else { return }
            wanted.insert(0..<min(length, Self.prefetchHead))
            wanted.insert(max(0, length - Self.prefetchTail)..<length)
        }
        wake(self)
    }

    /// Wants nothing more (the prefetch of a track that is no longer next).
    func unwant() {
        locked { wanted = ByteRanges() }
    }

    /// The bytes of `range`, which must all be here.
    func copy(_ clamped: Range<Int64>) throws -> [UInt8] {
        try locked {
            var bytes = [UInt8](repeating: 0, count: clamped.count)
            var done = 0
            while done < bytes.count {
                let copied = try bytes.withUnsafeMutableBytes {
                    try copyLocked(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...]), at: clamped.lowerBound + Int64(done))
                }
                guard copied > 0 else { throw LoaderError.badResponse("bytes vanished from the cache") }
                done += copied
            }
            return bytes
        }
    }

    /// Downloads the holes of `range` (clamped to the file) without read-ahead, and returns
    /// once every byte of it is here; the bytes are committed to the cache.
    @discardableResult
    func fetch(_ range: Range<Int64>) async throws -> Range<Int64> {
        let (clamped, version) = try want(range)
        try await wait(for: clamped, version: version)
        return clamped
    }

    /// Marks `range` (clamped to the file) as wanted, which also keeps the resource from being
    /// dropped as idle; returns it and the version it is of. Synchronous, so a caller on the
    /// loader can want a resource before anything else runs there.
    func want(_ range: Range<Int64>) throws -> (Range<Int64>, Int) {
        try locked {
            guard let length = info?.length else { throw LoaderError.badResponse("no length") }
            let clamped = min(range.lowerBound, length)..<min(range.upperBound, length)
            if !clamped.isEmpty { wanted.insert(clamped) }
            return (clamped, generation)
        }
    }

    /// Waits until `range` (wanted before, of `version`) is here; then no longer wants it.
    func wait(for range: Range<Int64>, version: Int) async throws {
        guard !range.isEmpty else { return }
        defer {
            locked { wanted = ByteRanges(wanted.ranges.flatMap { ByteRanges([range]).missing(in: $0) }) }
            commit()
        }
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let ready = locked {
                // In one critical section with the check: a version change cannot slip between.
                waiters.wait(for: range, waiter, settled: generation == version ? nil : .failure(LoaderError.changedOnServer))
                return settleWaitersLocked() || waiters.lastIsSettled
            }
            if ready { resumeSettled() }
            wake(self)
        }
    }

    /// Marks waiters whose range is here (or whose file failed) as settled; true if any are.
    /// With every waiter settled already (mostly none waits: a player reads, it does not wait
    /// here), nothing is worked out: `store` calls this for every piece of a download.
    private func settleWaitersLocked() -> Bool {
        guard waiters.hasUnsettledRanges else { return false }
        return waiters.settle(readable: readableLocked, failure: failure)
    }

    /// Resumes settled range waiters (outside the lock).
    private func resumeSettled() {
        for (continuation, result) in locked({ waiters.takeSettled() }) { continuation.resume(with: result) }
    }

    /// Copies bytes at `offset`, waiting for them if they are not here yet. 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, reader: Int, version expected: Int,
              isCancelled: () -> Bool, waiting: ((Bool) -> Void)?) throws -> Int {
        condition.lock()
        defer { condition.unlock() }
        var waited = false
        var waitingSince: Date?
        defer { if waited { waiting?(false) } }
        while true {
            if isCancelled() {
                demands[reader] = nil
                throw LoaderError.cancelled
            }
            guard generation == expected else {
                demands[reader] = nil
                throw LoaderError.changedOnServer
            }
            if let failure {
                demands[reader] = nil
                throw failure
            }
            guard let length = info?.length else { throw LoaderError.badResponse("no length") }
            if offset >= length || buffer.isEmpty { return 0 }
            let copied = try copyLocked(into: buffer, at: offset)
            if copied > 0 {
                demands[reader] = nil
                // A read within the run so far goes on with it (decoders reread a little);
                // anywhere else starts a new one.
                if let start = runStarts[reader], let position = positions[reader], start <= offset, offset <= position {} else {
                    runStarts[reader] = offset
                }
                let before = positions[reader] ?? offset
                positions[reader] = offset + Int64(copied)
                // Read-ahead is planned again when the run turns into playback, and as it moves
                // on (a window ahead of it moves with it).
                let start = runStarts[reader]!, end = offset + Int64(copied)
                if (before - start < ReadAheadPlanner.settledRun && end - start >= ReadAheadPlanner.settledRun)
                    || before / ReadAheadPlanner.largestChunk != end / ReadAheadPlanner.largestChunk {
                    wake(self)
                }
                return copied
            }
            if demands[reader] != offset {
                demands[reader] = offset
                wake(self)
            }
            if waitingSince == nil {
                waitingSince = Date()
            } else if !waited, Date().timeIntervalSince(waitingSince!) >= Self.bufferingAfter {
                waited = true
                waiting?(true)
            }
            _ = condition.wait(until: Date().addingTimeInterval(Self.bufferingAfter))
        }
    }

    /// Wakes blocked readers so they notice a cancellation.
    func interruptReaders() {
        locked { condition.broadcast() }
    }

    private var readableLocked: ByteRanges {
        var all = entry?.readable ?? ByteRanges()
        for range in spill.ranges.ranges { all.insert(range) }
        return all
    }

    private func copyLocked(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        if let entry, entry.available(from: offset) > 0 { return try entry.read(into: buffer, at: offset) }
        return spill.copy(into: buffer, at: offset)
    }

    // MARK: Planning

    /// The chunks to download now, marked in flight, and the version they are of. `readAhead`:
    /// a file up to this long is read ahead to its end; `fillWhole`: all of it, behind the reader too.
    func plan(readAhead: Int64, fillWhole: Bool) -> (chunks: [Range<Int64>], version: Int) {
        locked { (planLocked(readAhead: readAhead, fillWhole: fillWhole), generation) }
    }

    private func planLocked(readAhead: Int64, fillWhole: Bool) -> [Range<Int64>] {
        guard let info, failure == nil else { return [] }
        let chunks = planner.plan(ReadAheadPlanner.Situation(
            length: info.length, readable: readableLocked, inFlight: inFlight, firstRequestPending: firstRequestPending,
            acceptsRanges: info.acceptsRanges, fetches: fetches, demands: Array(demands.values), positions: Array(positions.values),
            runs: runStarts.compactMap { reader, start in positions[reader].map { start..<max(start, $0) } },
            readAheadLimit: readAhead, fillWhole: fillWhole, readers: readers, wanted: wanted, memoryOnly: spill.diskRefused, memoryBudget: MemorySpill.budget))
        for chunk in chunks { inFlight.insert(chunk) }
        fetches += chunks.count
        return chunks
    }

    /// The first request ended: its head is no longer covered by it.
    func firstRequestEnded() {
        locked { firstRequestPending = false }
        commit()
    }

    /// A download of `range` ended (done, given up, or superseded).
    func finished(_ range: Range<Int64>, version finishedVersion: Int) {
        locked {
            guard finishedVersion == generation else { return }
            fetches -= 1
            inFlight = ByteRanges(inFlight.ranges.flatMap { ByteRanges([range]).missing(in: $0) })
        }
        commit()
    }

    // MARK: Downloads

    /// What a download asks with: the version's text, what If-Range may carry (nil: a bare
    /// Range, its answer checked), the version to write under.
    var requestState: (validator: String?, ifRange: String?, version: Int, acceptsRanges: Bool, length: Int64?, failed: Bool) {
        locked { (info?.validator, info?.ifRange, generation, info?.acceptsRanges ?? true, info?.length, failure != nil) }
    }

    /// An answer that describes the file (the first one, or one that found it changed): returns
    /// the version its bytes belong to, and whether that is a new one.
    @discardableResult
    func establish(_ newInfo: ResourceInfo) -> (version: Int, changed: Bool) {
        let (infoWaiters, result): ([ResourceWaiters.Continuation], (Int, Bool)) = locked {
            var changed = false
            if let info, info.length == newInfo.length, Validator.sameVersion(info.validator, newInfo.validator) != false {
                // The same version, perhaps stated otherwise (GET's tag where a listing gave a
                // date, a tag turned strong): what both say is kept, in the record too, so a later
                // listing is compared like with like.
                let merged = Validator(text: newInfo.validator)?.merging(Validator(text: info.validator)) ?? Validator(text: info.validator)
                self.info?.validator = merged?.text
                self.info?.ifRange = newInfo.ifRange ?? (newInfo.validator == nil ? info.ifRange : nil)
                self.info?.acceptsRanges = newInfo.acceptsRanges
                if let merged, merged.text != entry?.validator { entry?.adopt(validator: merged.text) }
            } else {
                changed = true
                if info != nil {
                    // Another version: drop every byte of the old one, and its readers.
                    generation += 1
                    cache.remove(name: name)
                }
                spill = MemorySpill()
                inFlight = ByteRanges()
                fetches = 0
                demands = [:]
                wanted = ByteRanges()
                planner.reset()
                info = newInfo
                _ = waiters.settle(readable: ByteRanges(), failure: LoaderError.changedOnServer)
                stale = false
                entry = nil
                entry = try? cache.entry(name: name, check: check, length: newInfo.length, validator: newInfo.validator ?? "", stored: nil)
            }
            condition.broadcast()
            return (waiters.takeInfoWaiters(), (generation, changed))
        }
        for waiter in infoWaiters { waiter.resume() }
        resumeSettled()
        return result
    }

    /// A download that turned into a whole-file stream of a new version claims the whole file
    /// and writes under the version it returns.
    func adoptWholeStream() -> Int {
        locked {
            guard let length = info?.length else { return generation }
            inFlight.insert(0..<length)
            fetches += 1
            return generation
        }
    }

    /// The server has another version than the cached copy: the copy leaves the cache now and
    /// takes nothing more; whoever reads it keeps reading it (the unlinked file stays open).
    func forgetCachedCopy() {
        locked {
            stale = true
            cache.remove(name: name)
        }
    }

    /// The server answered a `Range` request with the whole file: downloads become whole-file
    /// streams, and its source remembers the server for every file of it.
    func rangesRefused() {
        wholeFileServers.insert(server)
        locked { info?.acceptsRanges = false }
    }

    /// Whether this file's server has been seen to ignore `Range`.
    var ignoresRanges: Bool { wholeFileServers.contains(server) }

    private var server: String { input.name + " " + input.server(of: location) }

    /// The origin requests for it go to, whichever source they are made for: concurrency is
    /// limited per host.
    var host: String { input.server(of: location) }

    /// Keeps downloaded bytes at `offset`; false when they belong to an outdated version.
    func store(_ bytes: UnsafeRawBufferPointer, at offset: Int64, version writer: Int) -> Bool {
        let (written, settled): (Int, Bool) = locked {
            guard writer == generation, let length = info?.length else { return (-1, false) }
            let end = min(length, offset + Int64(bytes.count))
            guard offset < end else { return (0, false) }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(end - offset)])
            if let entry, !spill.diskRefused, (try? entry.write(slice, at: offset)) != nil {
                uncommitted += Int64(slice.count)
            } else {
                if entry != nil && !spill.diskRefused {
                    // The disk refused (full, or over quota): play on from memory. The entry
                    // keeps serving and recording what it has; nothing more goes into it.
                    spill.refuseDisk()
                    try? entry?.commit()
                }
                spill.keep(Array(slice), at: offset, slowest: positions.values.min() ?? demands.values.min())
            }
            condition.broadcast()
            return (slice.count, settleWaitersLocked())  // in the same critical section as the write
        }
        guard written >= 0 else { return false }
        if settled { resumeSettled() }
        if dueForCommit { commit() }
        if written > 0 { cache.didWrite(written) }
        return true
    }

    /// Half a megabyte written, or anything written half a second ago: a crash loses at most that
    /// (each commit costs an fdatasync, so not much more often).
    private var dueForCommit: Bool {
        locked { uncommitted >= Self.commitEvery || (uncommitted > 0 && lastCommit.duration(to: .now) >= Self.commitAfter) }
    }

    /// Makes written bytes durable and recorded.
    func commit() {
        locked {
            uncommitted = 0
            lastCommit = .now
            guard let entry, !stale else { return }
            do { try entry.commit() } catch {
                // A disk that cannot sync or record: stop caching this file, keep what is recorded.
                spill.refuseDisk()
            }
        }
    }

    /// A download failed for good: waiting readers get `error`.
    func fail(_ error: LoaderError) {
        let infoWaiters = locked {
            failure = error
            condition.broadcast()
            _ = settleWaitersLocked()
            return waiters.takeInfoWaiters()
        }
        for waiter in infoWaiters { waiter.resume(throwing: error) }
        resumeSettled()
    }

    /// Bytes from `offset` on that are already here, for a download that restarts.
    func presentRun(from offset: Int64) -> Int64 {
        locked { readableLocked.presentRun(from: offset) }
    }
}
