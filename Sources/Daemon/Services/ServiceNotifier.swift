import CSystemd
import FoundationEssentials

/// Tells systemd how the daemon is doing (`Type=notify`): READY=1 once the bus name is owned,
/// STATUS= lines, STOPPING=1, and WATCHDOG=1 keep-alives when the unit sets `WatchdogSec=`.
/// Outside systemd (no NOTIFY_SOCKET) every call does nothing.
package enum ServiceNotifier {
    package static func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    package static func stopping() {
        send("STOPPING=1\nSTATUS=stopping")
    }

    /// RELOADING=1 (SIGHUP); the next STATUS= line says it is done.
    package static func reloading() {
        send("RELOADING=1\nSTATUS=reloading the config")
    }

    package static func status(_ text: String) {
        send("STATUS=\(text)")
    }

    /// Sends WATCHDOG=1 at half the unit's watchdog interval until the task is cancelled;
    /// returns at once when the unit has no watchdog.
    package static func keepWatchdogFed() async {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return }
        let interval = Duration.microseconds(Int64(microseconds / 2))
        while !Task.isCancelled {
            send("WATCHDOG=1")
            try? await Task.sleep(for: interval)
        }
    }

    private static func send(_ state: String) {
        _ = sd_notify(0, state)  // a datagram to systemd's socket: it does not block
    }
}
