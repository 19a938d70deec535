import Base

/// Where the server's changes meet the clients' `idle`s: each connection has the subsystems that
/// changed since it last asked (as MPD keeps them while a client is busy), and at most one
/// `idle` waiting. A change wakes every waiting client whose idle names it; one that is not
/// idle finds it at its next `idle`.
package final class MPDIdleHub: Sendable {
    private struct Client {
        var pending: Set<MPDSubsystem> = []
        var waiting: (subsystems: Set<MPDSubsystem>, wake: CheckedContinuation<Set<MPDSubsystem>, Never>)?
        /// An `idle` was begun (`expect`) and its `wait` has not run yet.
        var expected = false
        /// `cancel` came in that moment (`noidle` read right after `idle`, before the idle's task
        /// started): the wait ends at once.
        var cancelled = false
    }

    private let clients = Locked([UInt64: Client]())

    package init() {}

    /// A new connection; it hears of changes from now on.
    package func register(_ id: UInt64) {
        clients.withLock { $0[id] = Client() }
    }

    /// A closed connection; an idle it had waiting ends.
    package func unregister(_ id: UInt64) {
        let waiting = clients.withLock { $0.removeValue(forKey: id)?.waiting }
        waiting?.wake.resume(returning: [])
    }

    /// Whether the connection has an idle waiting.
    package func isWaiting(_ id: UInt64) -> Bool {
        clients.withLock { $0[id]?.waiting != nil }
    }

    /// Number of connections (tests, the log).
    package var count: Int { clients.withLock { $0.count } }

    /// Tells every connection that these subsystems changed.
    package func notify(_ changed: Set<MPDSubsystem>) {
        guard !changed.isEmpty else { return }
        var woken: [(CheckedContinuation<Set<MPDSubsystem>, Never>, Set<MPDSubsystem>)] = []
        clients.withLock { clients in
            for id in clients.keys {
                clients[id]?.pending.formUnion(changed)
                guard let client = clients[id], let waiting = client.waiting else { continue }
                let due = client.pending.intersection(waiting.subsystems)
                guard !due.isEmpty else { continue }
                clients[id]?.pending.subtract(due)
                clients[id]?.waiting = nil
                woken.append((waiting.wake, due))
            }
        }
        for (wake, due) in woken { wake.resume(returning: due) }
    }

    /// `idle`: the subsystems of `subsystems` (all if empty) that changed since the last `idle`,
    /// waiting for one if none has; an empty set if `cancel` (`noidle`, the client gone) came first.
    package func wait(_ id: UInt64, for subsystems: Set<MPDSubsystem>) async -> Set<MPDSubsystem> {
        let wanted = subsystems.isEmpty ? Set(MPDSubsystem.allCases) : subsystems
        return await withCheckedContinuation { wake in
            let ready: Set<MPDSubsystem>? = clients.withLock { clients in
                guard var client = clients[id] else { return [] }
                defer { clients[id] = client }
                let due = client.pending.intersection(wanted)
                let cancelled = client.cancelled
                (client.cancelled, client.expected) = (false, false)
                if !due.isEmpty {
                    client.pending.subtract(due)
                    return due
                }
                if cancelled { return [] }
                client.waiting = (wanted, wake)
                return nil
            }
            if let ready { wake.resume(returning: ready) }
        }
    }

    /// An `idle` begins: its `wait` runs in a task of its own, which a `noidle` read right after
    /// may come before; called before that task starts, so the `cancel` is not lost.
    package func expect(_ id: UInt64) {
        clients.withLock { $0[id]?.expected = true }
    }

    /// `noidle`: ends the connection's waiting idle with nothing.
    package func cancel(_ id: UInt64) {
        let waiting = clients.withLock { clients -> CheckedContinuation<Set<MPDSubsystem>, Never>? in
            guard let wake = clients[id]?.waiting?.wake else {
                // Its wait is still to come: it ends at once. (An idle answered already: nothing.)
                if clients[id]?.expected == true { clients[id]?.cancelled = true }
                return nil
            }
            clients[id]?.waiting = nil
            return wake
        }
        waiting?.resume(returning: [])
    }
}
