import Base
import Cache
import Model

/// The downloading side, on the loader's thread: what to fetch next (`plan`, from
/// `ReadAheadPlanner`), what an answer says of the file (`establish`: the same version, or a new
/// one that drops the old bytes), and the bytes it brings (`store`, committed to the cache every
/// half megabyte or half second).
extension RemoteResource {
    /// The chunks to download now, marked in flight, and the version they are of. `readAhead`:
    /// a file up to this long is read ahead to its end; `fillWhole`: all of it, behind the reader too.
    func plan(readAhead: Int64, fillWhole: Bool) -> (chunks: [Range<Int64>], version: Int) {
        locked { (planLocked(readAhead: readAhead, fillWhole: fillWhole), generation) }
    }

    private func planLocked(readAhead: Int64, fillWhole: Bool) -> [Range<Int64>] {
        guard let info, failure == nil else { return [] }
        let chunks = planner.plan(ReadAheadPlanner.Situation(
            length: info.length, readable: readableLocked, inFlight: inFlight, firstRequestPending: firstRequestPending,
            acceptsRanges: info.acceptsRanges, fetches: fetches, demands: Array(readers.demands.values),
            positions: Array(readers.positions.values), runs: readers.runs,
            readAheadLimit: readAhead, fillWhole: fillWhole, readers: readers.count, wanted: wanted, memoryOnly: spill.diskRefused,
            memoryBudget: MemorySpill.budget))
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
        // The last bytes' commit begins in the same critical section as the count drops: never
        // idle in between, so the loader never forgets a resource whose commit is still due.
        let commit: SparseCacheEntry.Commit? = locked {
            if finishedVersion == generation {
                fetches -= 1
                inFlight = ByteRanges(inFlight.ranges.flatMap { ByteRanges([range]).missing(in: $0) })
            }
            return commitLocked()
        }
        if let commit { perform(commit) }
    }

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
                    entry?.retire()
                    cache.remove(name: name)
                }
                spill = MemorySpill()
                inFlight = ByteRanges()
                fetches = 0
                readers.forgetDemands()
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
            entry?.retire()
            cache.remove(name: name)
        }
    }

    /// The server answered a `Range` request with the whole file: downloads become whole-file
    /// streams, and its source remembers the server for every file of it.
    func rangesRefused() {
        wholeFileServers.insert(server)
        locked { info?.acceptsRanges = false }
    }

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
                spill.keep(Array(slice), at: offset, slowest: readers.slowest)
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

    /// Makes written bytes durable and recorded — on the `BlockingPool`, one commit at a time:
    /// the sync takes seconds on a busy disk, and neither the lock (readers, downloads) nor the
    /// loader's thread (every download's bytes) may wait for it. Under load they did, for up to
    /// 4 s, and downloads broke off as if their servers had gone quiet.
    func commit() {
        if let commit = locked({ commitLocked() }) { perform(commit) }
    }

    /// What `commit` does under the lock: the commit to perform now, or nil (nothing to record,
    /// or one is in flight and the next is begun when it ends).
    private func commitLocked() -> SparseCacheEntry.Commit? {
        uncommitted = 0
        lastCommit = .now
        guard !committing else {
            commitAgain = true
            return nil
        }
        return beginCommitLocked()
    }

    /// The next commit of the current entry, marked in flight; nil if there is nothing to record.
    private func beginCommitLocked() -> SparseCacheEntry.Commit? {
        guard let entry, !stale, let commit = entry.beginCommit() else { return nil }
        committing = true
        commitGate.close()
        return commit
    }

    /// Performs `commit` on the commit pool; the one due meanwhile is begun as it ends, in the same
    /// critical section, so that `commitGate` never opens between the two.
    private func perform(_ commit: SparseCacheEntry.Commit) {
        commitPool.submit { [self] in
            let performed = (try? commit.perform()) != nil
            let next: SparseCacheEntry.Commit? = locked {
                if let entry, commit.isOf(entry) {
                    // A disk that cannot sync or record: stop caching this file, keep what is recorded.
                    // (A copy given up on as outdated is retired: its commit fails, and that is no fault of the disk.)
                    if performed { entry.endCommit(commit) } else if !stale { spill.refuseDisk() }
                }
                committing = false
                let again = commitAgain
                commitAgain = false
                let next = again ? beginCommitLocked() : nil
                if next == nil { commitGate.open() }
                return next
            }
            if let next { perform(next) }
        }
    }

    /// Waits until no commit is being performed (true), or `deadline` has passed (false). Waits
    /// without a thread: one blocked on the `BlockingPool` for this held a thread the commits
    /// themselves need, and four stops at once (tests in one process) starved the pool until
    /// the deadline — the last range of each went unrecorded, to be downloaded again.
    func commitsEnded(by deadline: ContinuousClock.Instant) async -> Bool {
        await commitGate.wait(until: deadline)
    }

    /// The first answer is a live stream: kept for `takeLiveAnswer()`, and the resource fails
    /// with `LoaderError.liveStream` (nothing of it is cached).
    func handOver(_ answer: HTTPAnswer) {
        locked { liveAnswer = (answer, .now) }
        fail(.liveStream)
    }

    /// The live answer `handOver` kept, once — if it is fresh: one left unread longer (a stop
    /// while it came) has a socket's worth of stale audio behind it, and is let go (closed).
    /// Fresh is 5 s: the opener takes it at once, but on a loaded machine "at once" has been
    /// over a second, and a plain file sent without a length was then requested twice.
    func takeLiveAnswer() -> HTTPAnswer? {
        locked {
            defer { liveAnswer = nil }
            guard let kept = liveAnswer, ContinuousClock.now - kept.at < .seconds(5) else { return nil }
            return kept.answer
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
}
