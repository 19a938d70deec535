import Base
import Glibc
import Logging

/// The last word on stopping: once the daemon (or `play`) has begun to stop, the process ends
/// within `limit` even if some part hangs on the network — a SIGTERM from systemd, a Ctrl-C, a
/// client's Quit is obeyed in time whatever a server does. Every part is meant to stop
/// well before; this is what makes it a promise, and it says so in the log when it had to act.
/// `play` ending on its own (its queue played out, a client's Stop, its output failed) has
/// already stopped its sound; it gets `afterSound`, a bound against hanging rather than a
/// promise, since its last reports may still be on their way on a loaded machine — until a
/// signal tightens it to `limit`. A save of the playback state under way when the deadline
/// passes moves it on once, by `savingGrace`: the deadline bounds waits on the network, and a
/// slow disk's sync of a few kilobytes is worth a late stop more than the listener's queue.
package enum StopDeadline {
    /// How long a stop someone asked for may take.
    package static let limit = Duration.milliseconds(950)
    /// How long `play` may take to end once its sound has stopped.
    package static let afterSound = Duration.seconds(10)

    /// The instant (CLOCK_MONOTONIC, in nanoseconds) the process ends at; nil until armed.
    private static let deadline = Locked<UInt64?>(nil)
    private static let wake = ThreadCondition()
    /// The parts of the group still running, by type: named when the deadline has to act.
    static let unfinished = Locked<[String]>([])
    /// How long past the deadline a save of the playback state under way may still finish: on a
    /// busy disk its syncs took over a second, and the deadline then cut it off — the daemon came
    /// back with the queue and timers as they were before. The deadline bounds waits on the
    /// network; a few kilobytes to the disk are let finish.
    package static let savingGrace = Duration.seconds(5)
    /// Saves under way (`whileSaving`).
    private static let saving = Locked(0)

    /// A stop was asked for: the process ends within `limit` from now, or sooner if armed so.
    package static func arm() { arm(within: limit) }

    /// The process ends within `bound` from now, or at the deadline already set if that is sooner.
    package static func arm(within bound: Duration) {
        let at = now() + UInt64(bound.components.seconds) * 1_000_000_000 + UInt64(bound.components.attoseconds / 1_000_000_000)
        let first = deadline.withLock { deadline -> Bool in
            defer { deadline = min(deadline ?? at, at) }
            return deadline == nil
        }
        if first {
            NamedThread.start("stop-deadline", watch)
        } else {
            wake.withLock { wake.signal() }
        }
    }

    /// The group stops for a reason that armed nothing yet (a client's Quit, a lost bus): as a
    /// stop asked for. After `play`'s own end it leaves that bound as it is.
    package static func armUnlessArmed() {
        if deadline.withLock({ $0 == nil }) { arm() }
    }

    /// Runs `body`, a save of the playback state: a deadline that passes meanwhile waits for its
    /// end, for at most `savingGrace` more.
    package static func whileSaving<T>(_ body: () throws -> T) rethrows -> T {
        saving.withLock { $0 += 1 }
        defer { saving.withLock { $0 -= 1 } }
        return try body()
    }

    /// Sleeps until the deadline, waking when it is moved nearer; then ends the process.
    private static func watch() {
        var extended = false
        wake.lock()
        while let at = deadline.withLock({ $0 }) {
            let current = now()
            if current >= at {
                // Once: a save under way moves the deadline `savingGrace` on, for the save and
                // the rest of the stop after it.
                guard !extended, saving.withLock({ $0 > 0 }) else { break }
                extended = true
                deadline.withLock { $0 = at + UInt64(savingGrace.components.seconds) * 1_000_000_000 }
                Logger(label: "cloudplayerd.daemon").notice("the playback state is still being saved (a slow disk): stopping waits for it")
                continue
            }
            wake.wait(seconds: Double(at - current) / 1e9)
        }
        wake.unlock()
        let holding = unfinished.withLock { $0 }
        Logger(label: "cloudplayerd.daemon").error("did not stop in time: exiting now",
                                                   metadata: ["still stopping": "\(holding.isEmpty ? "no part of the group; what comes after it" : holding.joined(separator: ", "))"])
        _exit(1)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
