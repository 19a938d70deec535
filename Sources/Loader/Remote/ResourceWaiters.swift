import Cache
import Model

/// Async callers waiting on a `RemoteResource`: for its length and version (`waitForInfo()`), or
/// for a range of its bytes (`wait(for:version:)`, behind `bytes(in:)` and `fetch`).
///
/// Kept under the resource's lock; continuations are resumed outside it, so what is due is
/// taken out and handed back to be resumed.
struct ResourceWaiters {
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// Waiting for the length and version: all resumed together, by the answer that describes
    /// the file or by the failure that ends its download — or one alone, when its task is
    /// cancelled (a stop while the server has not answered yet).
    private var info: [UInt64: Continuation] = [:]
    private var lastInfoWaiter: UInt64 = 0
    /// Waiting for a range of bytes; `settled` once the bytes are here or can no longer come (a
    /// failure, another version), until `takeSettled()` hands it out to be resumed.
    private var ranges: [(range: Range<Int64>, continuation: Continuation, settled: Result<Void, any Error>?)] = []

    /// A number for the next info waiter, known before it waits so its cancellation can find it.
    mutating func nextInfoWaiter() -> UInt64 {
        lastInfoWaiter += 1
        return lastInfoWaiter
    }

    mutating func waitForInfo(_ id: UInt64, _ waiter: Continuation) {
        info[id] = waiter
    }

    /// The info waiter `id`, no longer held (its task was cancelled): the caller resumes it.
    mutating func removeInfoWaiter(_ id: UInt64) -> Continuation? {
        info.removeValue(forKey: id)
    }

    /// Every info waiter, no longer held: the caller resumes them.
    mutating func takeInfoWaiters() -> [Continuation] {
        defer { info = [:] }
        return Array(info.values)
    }

    /// Adds a waiter for `range`; `settled`: its outcome is known already (a version changed).
    mutating func wait(for range: Range<Int64>, _ continuation: Continuation, settled: Result<Void, any Error>?) {
        ranges.append((range, continuation, settled))
    }

    /// Whether a waiter for a range is not settled yet.
    var hasUnsettledRanges: Bool { ranges.contains { $0.settled == nil } }

    /// Whether the waiter added last is settled (added with an outcome, or settled since).
    var lastIsSettled: Bool { ranges.last?.settled != nil }

    /// Settles the waiters whose range is all in `readable`, or every waiter with `failure`;
    /// true if it settled any.
    mutating func settle(readable: ByteRanges, failure: LoaderError?) -> Bool {
        var settledAny = false
        for index in ranges.indices where ranges[index].settled == nil {
            if let failure {
                ranges[index].settled = .failure(failure)
            } else if readable.contains(ranges[index].range) {
                ranges[index].settled = .success(())
            } else {
                continue
            }
            settledAny = true
        }
        return settledAny
    }

    /// The settled waiters with their outcomes, no longer held: the caller resumes them.
    mutating func takeSettled() -> [(Continuation, Result<Void, any Error>)] {
        let done = ranges.compactMap { waiter in waiter.settled.map { (waiter.continuation, $0) } }
        ranges.removeAll { $0.settled != nil }
        return done
    }
}
