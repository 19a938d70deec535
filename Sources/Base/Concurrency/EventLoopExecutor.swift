import CConcurrencyHooks
import NIOCore
import NIOPosix

/// Swift concurrency's jobs run on SwiftNIO's event loops (`MultiThreadedEventLoopGroup.singleton`,
/// one thread a core, already there for the MPD server) instead of libdispatch's root queues.
///
/// Why: the first worker thread of libdispatch's root queues starts its workqueue monitor, a
/// one-second timer on the manager queue that is never stopped (swift-corelibs-libdispatch,
/// `src/event/workqueue.c`), so a process whose tasks ran there wakes once a second forever,
/// idle or not. NIO's loops sleep in `epoll_wait` until there is work or a timer is due.
///
/// The runtime's three global-executor hooks are set: jobs enqueued now go to an event loop
/// (NIO's own take-over does the same, but finds the hook with dlsym, which finds nothing in the
/// package's program: its Swift runtime is linked in), and jobs enqueued for later (`Task.sleep`,
/// every timeout) to an event loop's timer, which enqueues the job when it is due.
package enum EventLoopExecutor {
    /// Installs the take-over; call first thing in `main`, from the main thread, before any task
    /// runs. False if a hook was set already by someone else (then nothing is changed).
    @discardableResult
    package static func install() -> Bool {
        let now = cconcurrency_enqueue_global_hook()
        let delay = cconcurrency_enqueue_global_with_delay_hook()
        let deadline = cconcurrency_enqueue_global_with_deadline_hook()
        guard now.pointee == nil, delay.pointee == nil, deadline.pointee == nil else { return false }
        // The hooks' types as the runtime declares them (swift/Runtime/Concurrency.h), with
        // Swift's calling convention: a job now; a delay in nanoseconds; a deadline in seconds and
        // nanoseconds of a clock (1 continuous, 2 suspending) with a tolerance. Closures that
        // capture nothing, so each is a plain function pointer.
        typealias NowOriginal = @convention(thin) (UnownedJob) -> Void
        typealias NowHook = @convention(thin) (UnownedJob, NowOriginal) -> Void
        typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
        typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
        typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
        typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
        let onNow: NowHook = { job, _ in
            // `any()` stays on the loop it is called from, if it is one of the group's.
            MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
        }
        let onDelay: DelayHook = { delay, job, _ in
            EventLoopExecutor.enqueue(job, after: Int64(clamping: delay))
        }
        let onDeadline: DeadlineHook = { seconds, nanoseconds, _, _, clock, job, _ in
            var (nowSeconds, nowNanoseconds): (Int64, Int64) = (0, 0)
            runtimeTime(&nowSeconds, &nowNanoseconds, clock)
            // Saturating: a deadline centuries away waits as long as a timer can.
            let (whole, overflow) = (seconds &- nowSeconds).multipliedReportingOverflow(by: 1_000_000_000)
            EventLoopExecutor.enqueue(job, after: overflow ? .max : whole.addingReportingOverflow(nanoseconds &- nowNanoseconds).partialValue)
        }
        install(onNow, at: now)
        install(onDelay, at: delay)
        install(onDeadline, at: deadline)
        return true
    }

    /// Stores the function pointer `hook` where the runtime reads it.
    private static func install<Hook>(_ hook: Hook, at place: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        withUnsafeBytes(of: hook) { bytes in
            place.pointee = bytes.load(as: UnsafeMutableRawPointer?.self)
        }
    }

    /// Hands `job` to an event loop once `nanoseconds` have passed.
    private static func enqueue(_ job: UnownedJob, after nanoseconds: Int64) {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        guard nanoseconds > 0 else { return loop.enqueue(ExecutorJob(job)) }
        loop.scheduleTask(in: .nanoseconds(nanoseconds)) { loop.enqueue(ExecutorJob(job)) }
    }
}

/// The runtime's own reading of its clocks, which a deadline is given in.
@_silgen_name("swift_get_time")
private func runtimeTime(_ seconds: UnsafeMutablePointer<Int64>, _ nanoseconds: UnsafeMutablePointer<Int64>, _ clock: Int32)
