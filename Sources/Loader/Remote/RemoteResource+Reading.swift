import Base
import Cache
import FoundationEssentials
import Model

/// The reading side: decoder threads that attach, read (blocking until the bytes come) and
/// detach, and async callers that want a range (a prefetch, `fetch`) and wait for it.
extension RemoteResource {
    /// Registers a reader; the resource is in use (not evicted) and read ahead while it has any.
    func attach() -> Int {
        let id = locked {
            failure = nil  // a new reader tries again after a failure
            return readers.attach()
        }
        wake(self)
        return id
    }

    func detach(_ reader: Int) {
        locked { readers.detach(reader) }
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
                readers.stopWaiting(reader)
                throw LoaderError.cancelled
            }
            guard generation == expected else {
                readers.stopWaiting(reader)
                throw LoaderError.changedOnServer
            }
            if let failure {
                readers.stopWaiting(reader)
                throw failure
            }
            guard let length = info?.length else { throw LoaderError.badResponse("no length") }
            if offset >= length || buffer.isEmpty { return 0 }
            let copied = try copyLocked(into: buffer, at: offset)
            if copied > 0 {
                if readers.read(reader, at: offset, copied: copied) { wake(self) }
                return copied
            }
            if readers.demand(reader, at: offset) { wake(self) }
            if waitingSince == nil {
                waitingSince = Date()
            } else if !waited, Date().timeIntervalSince(waitingSince!) >= Self.bufferingAfter {
                waited = true
                waiting?(true)
            }
            condition.wait(seconds: Self.bufferingAfter)
        }
    }

    /// Wakes blocked readers so they notice a cancellation.
    func interruptReaders() {
        locked { condition.broadcast() }
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

    // MARK: Waiting without a thread

    /// Clears the failure of a resource that never learnt its length and version (its first
    /// answer was a refusal, a 404, a network error): true when its opening is to be tried again
    /// — the next asker asks the server anew (a password corrected since), as a new reader of a
    /// resource that failed later does.
    func retryFailedOpening() -> Bool {
        locked {
            guard info == nil, failure != nil else { return false }
            failure = nil
            return true
        }
    }

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
            failure = nil  // a new want tries again after a failure, as a new reader does
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
    func settleWaitersLocked() -> Bool {
        guard waiters.hasUnsettledRanges else { return false }
        return waiters.settle(readable: readableLocked, failure: failure)
    }

    /// Resumes settled range waiters (outside the lock).
    func resumeSettled() {
        for (continuation, result) in locked({ waiters.takeSettled() }) { continuation.resume(with: result) }
    }
}
