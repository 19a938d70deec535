import Base

/// At most `limit` downloads at a time per host, and none while a host asked to be left alone
/// (429 or 503 with `Retry-After`): some servers (Yandex.Disk's WebDAV) answer eager clients
/// with 429. One for the loader, so the limit holds across files and sources.
package final class HostLimiter: Sendable {
    private struct Host {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// No request before this (a `Retry-After`).
        var quietUntil: ContinuousClock.Instant?
    }

    private struct State {
        var limit: Int
        var hosts: [String: Host] = [:]
    }

    private let state: Locked<State>

    package init(limit: Int) {
        state = Locked(State(limit: max(1, limit)))
    }

    /// A new limit (a reload); downloads under way finish, waiting ones start if it allows.
    package func setLimit(_ limit: Int) {
        let started: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.limit = max(1, limit)
            var started: [CheckedContinuation<Void, Never>] = []
            for key in state.hosts.keys {
                while state.hosts[key]!.running < state.limit, !state.hosts[key]!.waiting.isEmpty {
                    state.hosts[key]!.running += 1
                    started.append(state.hosts[key]!.waiting.removeFirst())
                }
            }
            return started
        }
        for waiter in started { waiter.resume() }
    }

    /// Returns once `host` has room for one more download and its quiet time is over; each call
    /// is paired with one `release`.
    package func acquire(_ host: String) async {
        while let until = state.withLock({ $0.hosts[host]?.quietUntil }), until > .now {
            try? await Task.sleep(until: until)
            if Task.isCancelled { break }
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now: Bool = state.withLock { state in
                let limit = state.limit
                return modify(&state.hosts[host, default: Host()]) { entry in
                    guard entry.running < limit else {
                        entry.waiting.append(waiter)
                        return false
                    }
                    entry.running += 1
                    return true
                }
            }
            if now { waiter.resume() }
        }
    }

    /// Downloads waiting for room at `host`.
    package func waiting(_ host: String) -> Int {
        state.withLock { $0.hosts[host]?.waiting.count ?? 0 }
    }

    /// A download ended: its room goes to the next waiting one.
    package func release(_ host: String) {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            let limit = state.limit
            return modify(&state.hosts[host, default: Host()]) { entry in
                if entry.running <= limit, !entry.waiting.isEmpty { return entry.waiting.removeFirst() }
                entry.running -= 1
                return nil
            }
        }
        next?.resume()
    }

    /// The host asked for no request during `delay`: every download of it waits that long.
    package func quiet(_ host: String, for delay: Duration) {
        state.withLock { state in
            let until = ContinuousClock.now + delay
            modify(&state.hosts[host, default: Host()]) { entry in
                entry.quietUntil = max(entry.quietUntil ?? until, until)
            }
        }
    }
}

/// Runs `body` on a value in place (an entry of a dictionary, without copying it out and back).
private func modify<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result {
    body(&value)
}
