import Base
import Glibc
import Logging

/// The last word on stopping: once the daemon (or `play`) has begun to stop, for whatever reason,
/// the process ends within `limit` even if some part hangs on the network — a SIGTERM from
/// systemd or a Ctrl-C is obeyed in time whatever a server does. Every part is meant to stop well
/// before; this is what makes it a promise, and it says so in the log when it had to act.
package enum StopDeadline {
    package static let limit = Duration.milliseconds(950)

    private static let armed = Locked(false)

    /// Starts the countdown (once; later calls do nothing).
    package static func arm() {
        guard armed.withLock({ armed in defer { armed = true }; return !armed }) else { return }
        NamedThread.start("stop-deadline") {
            let (seconds, attoseconds) = limit.components
            var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
            Logger(label: "cloudplayerd.daemon").error("did not stop within \(limit): exiting now")
            _exit(1)
        }
    }
}
