
/// A gate that tasks wait at while it is closed — how a paused output holds its writer, how a
/// connection's users wait for its thread to end, and how a stop waits for the cache's commits.
/// Waiting is cancellable, so a seek or stop never leaves a writer stuck behind a pause.
package final class AsyncGate: Sendable {
    private struct State {
        var isOpen: Bool
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state: Locked<State>

    /// `open: false`: a gate that tasks wait at until something has happened (a thread ended).
    package init(open: Bool = true) {
        state = Locked(State(isOpen: open))
    }

    package var isOpen: Bool { state.withLock { $0.isOpen } }

    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    package func close() {
        state.withLock { $0.isOpen = false }
    }

    /// Returns at once if the gate is open, else when it opens; throws if the task is cancelled.
    package func wait() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.isOpen { return .success(()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Waits until the gate is open (true) or `deadline` has passed (false), never longer: how a
    /// stop waits for work that must not hold it up past its own deadline. A task cancelled
    /// meanwhile gets false.
    package func wait(until deadline: ContinuousClock.Instant) async -> Bool {
        if isOpen { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.wait()) != nil }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }
}
