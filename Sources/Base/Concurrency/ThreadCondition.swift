import Glibc

/// A pthread mutex and a condition variable on it, for threads of our own that wait for work
/// (`ThreadExecutor`, a reader waiting for bytes). pthreads rather than `Synchronization.Mutex`
/// for the reason `Locked` gives; rather than `NSCondition`, so that Base needs no Foundation.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // deadlines immune to clock changes
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the mutex held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits, the mutex held, until signalled (or woken spuriously: callers loop on their predicate).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// As `wait()`, for at most `seconds`; false when the time ran out.
    @discardableResult
    package func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + Int((max(0, seconds) * 1e9).rounded())
        var deadline = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    package func signal() { pthread_cond_signal(condition) }
    package func broadcast() { pthread_cond_broadcast(condition) }
}
