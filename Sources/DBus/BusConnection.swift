import Base
import CSystemd
import Glibc
import Synchronization

/// One sd-bus connection and the thread that owns it.
///
/// sd-bus objects are not thread-safe, so every sd-bus call happens on this one thread: other
/// threads hand it jobs with `perform`, which wakes its poll through a pipe.
package final class BusConnection: Sendable {
    package typealias Job = @Sendable (OpaquePointer) -> Void

    /// The wake-up pipe: written by `perform`, polled by the bus thread.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private struct Queue {
        var jobs: [Job] = []
        /// Set by the bus thread as it ends: later jobs are refused, and the pipe is gone.
        var closed = false
        /// Objects sd-bus holds pointers to (vtables, userdata), released after the bus is.
        var keptAlive: [AnyObject] = []
        /// Why the connection ended without `close()`: the bus went away.
        var lost: String?
    }

    private let queue = Locked(Queue())
    private let stopping = Atomic<Bool>(false)
    /// Opens when the bus thread has ended.
    private let finished = AsyncGate(open: false)

    /// Connects to the bus at `address` (nil: the session bus of `DBUS_SESSION_BUS_ADDRESS`) and
    /// starts the bus thread.
    package init(address: String? = nil) throws {
        var bus: OpaquePointer?
        var status: Int32
        if let address {
            status = sd_bus_new(&bus)
            if status >= 0 { status = sd_bus_set_address(bus, address) }
            if status >= 0 { status = sd_bus_set_bus_client(bus, 1) }
            // As sd_bus_open_user does: the peer is the session bus, trusted to check callers.
            if status >= 0 { status = sd_bus_set_trusted(bus, 1) }
            if status >= 0 { status = sd_bus_start(bus) }
        } else {
            status = sd_bus_open_user(&bus)
        }
        guard status >= 0, let bus else {
            if let bus { sd_bus_unref(bus) }
            throw BusError.connectionFailed(String(cString: strerror(-status)))
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            sd_bus_unref(bus)
            throw BusError.connectionFailed(String(cString: strerror(errno)))
        }
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let owned = UncheckedBus(pointer: bus)
        NamedThread.start("bus") { [self] in run(owned.pointer) }
    }

    /// Runs `job` on the bus thread, soon; false (and it never runs) once the connection closed.
    @discardableResult
    package func perform(_ job: @escaping Job) -> Bool {
        queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.jobs.append(job)
            var byte: UInt8 = 1
            _ = write(wakeWriter, &byte, 1)  // a full pipe already means "wake up"
            return true
        }
    }

    /// Keeps `object` alive as long as the bus: sd-bus holds raw pointers into it.
    package func keepAlive(_ object: AnyObject & Sendable) {
        queue.withLock { $0.keptAlive.append(object) }
    }

    /// Flushes what is queued (for at most `flushLimit`), closes the connection (releasing its
    /// names) and waits for the thread to end.
    package func close() async {
        stopping.store(true, ordering: .sequentiallyConsistent)
        perform { _ in }  // wakes the thread, unless it has ended already
        try? await finished.wait()
    }

    /// Runs `body` on the bus thread and returns its result; nil if the connection has closed.
    package func call<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let queued = perform { bus in continuation.resume(returning: body(bus)) }
            if !queued { continuation.resume(returning: nil) }
        }
    }

    /// Waits until the connection has ended. Returns why when the bus went away (the bus daemon
    /// stopped or dropped the connection); nil when `close()` ended it, or the wait was cancelled.
    package func ended() async -> String? {
        guard (try? await finished.wait()) != nil else { return nil }
        return queue.withLock { $0.lost }
    }

    private func run(_ bus: OpaquePointer) {
        var lost: String?
        while !stopping.load(ordering: .sequentiallyConsistent) {
            for job in takeJobs() { job(bus) }
            // A bounded batch: under a flood of calls the queued jobs (replies, signals) and a
            // stop still get their turn.
            var processed: Int32 = 0
            for _ in 0..<Self.batch {
                processed = sd_bus_process(bus, nil)
                if processed <= 0 || stopping.load(ordering: .sequentiallyConsistent) { break }
            }
            if processed < 0 {  // the bus went away (ECONNRESET …): nothing more to serve
                lost = String(cString: strerror(-processed))
                break
            }
            if processed > 0 { continue }  // more is waiting: no need to poll for it
            var descriptors = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
            ]
            let result = poll(&descriptors, 2, Self.pollTimeout(bus))
            if result < 0 && errno != EINTR {
                lost = String(cString: strerror(errno))
                break
            }
            if descriptors[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeReader, &drain, drain.count) > 0 {}
            }
        }
        // Last jobs, then refuse more: a reply that comes later has no bus to go to.
        let last = queue.withLock { queue in
            queue.closed = true
            queue.lost = lost
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
        for job in last { job(bus) }
        Self.flush(bus, within: Self.flushLimit)
        sd_bus_close_unref(bus)
        let kept = queue.withLock { queue in
            Glibc.close(wakeReader)
            Glibc.close(wakeWriter)
            defer { queue.keptAlive.removeAll() }
            return queue.keptAlive
        }
        withExtendedLifetime(kept) {}
        finished.open()
    }

    /// Messages handled before the queued jobs run again.
    private static let batch = 64

    private func takeJobs() -> [Job] {
        queue.withLock { queue in
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
    }

    /// How long a closing connection writes what is still queued (the last signals and replies).
    /// `sd_bus_flush` waits as long as it takes, so a bus daemon that stops reading — frozen, or
    /// buried under a client's flood — could hold up a stop past its deadline. Closing the
    /// connection releases the names whatever was written.
    private static let flushLimit = Duration.milliseconds(250)

    /// Writes what is queued until it is all written or `limit` has passed.
    private static func flush(_ bus: OpaquePointer, within limit: Duration) {
        let end = ContinuousClock.now + limit
        while true {
            let events = sd_bus_get_events(bus)  // POLLOUT while something is queued; < 0: closed
            let left = ContinuousClock.now.duration(to: end)
            guard events > 0, events & Int32(POLLOUT) != 0, left > .zero else { return }
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000) + 1
            var descriptor = pollfd(fd: sd_bus_get_fd(bus), events: Int16(POLLOUT), revents: 0)
            guard poll(&descriptor, 1, milliseconds) > 0, sd_bus_process(bus, nil) >= 0 else { return }
        }
    }

    /// Milliseconds until sd-bus wants to run again (-1: no deadline).
    private static func pollTimeout(_ bus: OpaquePointer) -> Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(min((deadline - nowMicroseconds + 999) / 1000, UInt64(Int32.max)))
    }
}

/// An sd-bus pointer handed to the bus thread that will own it.
private struct UncheckedBus: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Why the bus could not be used. One line, for a person.
package enum BusError: Error, CustomStringConvertible {
    case connectionFailed(String)
    case nameTaken(String)
    case registrationFailed(String)

    package var description: String {
        switch self {
        case .connectionFailed(let reason): "cannot connect to the D-Bus session bus: \(reason)"
        case .nameTaken(let name): "the bus name \(name) is already taken (is another cloudplayerd running?)"
        case .registrationFailed(let reason): "cannot publish on D-Bus: \(reason)"
        }
    }
}

extension BusConnection {
    /// Adds objects to the bus (on the bus thread); `register` returns a negative errno on failure.
    package func register(_ register: @escaping @Sendable (OpaquePointer) -> Int32) async throws {
        let status = await call(register) ?? -ENOTCONN
        guard status >= 0 else { throw BusError.registrationFailed(String(cString: strerror(-status))) }
    }

    /// Takes a well-known name, once every object is registered (a client that sees the name
    /// must find them).
    package func requestName(_ name: String) async throws {
        let status = await call { bus in sd_bus_request_name(bus, name, 0) } ?? -ENOTCONN
        guard status >= 0 else {
            throw status == -EEXIST ? BusError.nameTaken(name) : BusError.registrationFailed(String(cString: strerror(-status)))
        }
    }
}
