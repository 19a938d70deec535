import Base
import Logging

/// Reports to sources under way (a Subsonic `scrobble` of a play): sent without holding up the
/// player, and waited for — a little — when the daemon stops, so the last listen of a
/// `cloudplayerd play` reaches the server instead of being cut off with the process.
package final class PendingReports: Sendable {
    /// How long stopping waits for reports still under way: well within the second a SIGTERM
    /// may take, whatever the network does.
    static let grace = Duration.milliseconds(500)

    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var next: UInt64 = 0
    }

    private let state = Locked(State())
    /// Open while no report is under way.
    private let idle = AsyncGate()

    package init() {}

    /// Sends one report in a task of its own.
    func send(_ report: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            state.next += 1
            let id = state.next
            idle.close()
            state.tasks[id] = Task { [weak self] in
                await report()
                self?.done(id)
            }
        }
    }

    private func done(_ id: UInt64) {
        // Under the lock, as `send` closes it: the gate never says idle with a report under way.
        state.withLock { state in
            state.tasks[id] = nil
            if state.tasks.isEmpty { idle.open() }
        }
    }

    /// Waits for the reports under way, at most `grace`, then cancels what is left (said in the log).
    func finish(logger: Logger) async {
        let allSent = await idle.wait(until: .now + Self.grace)
        guard !allSent else { return }
        let left = state.withLock { Array($0.tasks.values) }
        guard !left.isEmpty else { return }
        logger.warning("stopping before \(left.count) play report(s) reached the server")
        left.forEach { $0.cancel() }
    }
}
