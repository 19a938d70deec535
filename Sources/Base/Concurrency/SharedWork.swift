/// Work that runs once for everyone who asks for it while it runs: ten downloads that start
/// together wait for one `password_command` (one thread of the `BlockingPool`, not ten), and a
/// token that ten requests found expired is refreshed once. A caller that is cancelled stops
/// waiting; the work goes on for the others, and to its end — a token refresh cut off could
/// lose a rotated refresh token. What it returns is not kept (`Resolved` keeps it).
package final class SharedWork<Value: Sendable>: Sendable {
    private struct State {
        /// Who waits for the run under way; nil when none is.
        var waiters: [UInt64: CheckedContinuation<Value, any Error>]?
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// What `work` returns: of the run under way if there is one, else of a run started now.
    package nonisolated(nonsending) func run(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let starts: Bool? = state.withLock { state in
                    if Task.isCancelled { return nil }
                    // Waiters that all left keep the run: it goes on, and a newcomer joins it.
                    let starts = state.waiters == nil
                    if starts { state.waiters = [:] }
                    state.waiters?[id] = continuation
                    return starts
                }
                switch starts {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: Task { self.finish(with: await Self.outcome(of: work)) }
                case false?: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters?.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private static func outcome(of work: @Sendable () async throws -> Value) async -> Result<Value, any Error> {
        do {
            return .success(try await work())
        } catch {
            return .failure(error)
        }
    }

    private func finish(with outcome: Result<Value, any Error>) {
        let waiters = state.withLock { state in
            defer { state.waiters = nil }
            return state.waiters.map { Array($0.values) } ?? []
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}
