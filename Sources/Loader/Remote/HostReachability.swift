import Base

/// Which hosts could not be connected to lately (refused, unreachable, no answer to connect):
/// the network or the server is down. A track from such a host that is not wholly cached is
/// skipped at its start ("not available offline") instead of stalling the queue; a mark lasts
/// `memory`, and any answer from the host clears it, so a network that is back needs no restart.
package final class HostReachability: Sendable {
    private let unreachableSince: Locked<[String: ContinuousClock.Instant]> = Locked([:])
    /// How long a failed connection stands for the host.
    private let memory: Duration

    package init(memory: Duration = .seconds(30)) {
        self.memory = memory
    }

    package func connectFailed(_ host: String) {
        unreachableSince.withLock { $0[host] = .now }
    }

    package func answered(_ host: String) {
        unreachableSince.withLock { _ = $0.removeValue(forKey: host) }
    }

    package func isUnreachable(_ host: String) -> Bool {
        unreachableSince.withLock { marks in
            guard let since = marks[host] else { return false }
            return since.duration(to: .now) < memory
        }
    }
}
