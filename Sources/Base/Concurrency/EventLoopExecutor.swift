import Glibc
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
/// NIO's own take-over routes jobs enqueued now; jobs enqueued for later (`Task.sleep`, every
/// timeout) go through two other runtime hooks, which would still hand them to libdispatch: they
/// are routed here to an event loop's timer, which enqueues the job when it is due.
package enum EventLoopExecutor {
    /// Installs the take-over; call first thing in `main`, from the main thread, before any task
    /// runs. False where the runtime offers no hooks (then libdispatch keeps the jobs).
    @discardableResult
    package static func install() -> Bool {
        guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() else { return false }
        let runtime = dlopen(nil, RTLD_NOW)
        guard let delayHook = dlsym(runtime, "swift_task_enqueueGlobalWithDelay_hook"),
              let deadlineHook = dlsym(runtime, "swift_task_enqueueGlobalWithDeadline_hook") else { return false }
        // The hooks' types as the runtime declares them (swift/Runtime/Concurrency.h), with
        // Swift's calling convention: a delay in nanoseconds; a deadline in seconds and
        // nanoseconds of a clock (1 continuous, 2 suspending) with a tolerance.
        typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
        typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
        typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
        typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
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
        delayHook.assumingMemoryBound(to: DelayHook.self).initialize(to: onDelay)
        deadlineHook.assumingMemoryBound(to: DeadlineHook.self).initialize(to: onDeadline)
        return true
    }

    /// Hands `job` to the global executor (an event loop) once `nanoseconds` have passed.
    private static func enqueue(_ job: UnownedJob, after nanoseconds: Int64) {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        guard nanoseconds > 0 else { return loop.execute { globalConcurrentExecutor.enqueue(ExecutorJob(job)) } }
        loop.scheduleTask(in: .nanoseconds(nanoseconds)) { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}

/// The runtime's own reading of its clocks, which a deadline is given in.
@_silgen_name("swift_get_time")
private func runtimeTime(_ seconds: UnsafeMutablePointer<Int64>, _ nanoseconds: UnsafeMutablePointer<Int64>, _ clock: Int32)
