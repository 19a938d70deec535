/// A serial executor that runs its jobs on one dedicated thread.
///
/// Actors that must make blocking C calls (a decoder whose read callback waits for bytes, file I/O)
/// use it so the blocking never happens on Swift's cooperative pool. Linux has no
/// `DispatchSerialQueue`, so this is the way to pin an actor to a thread of its own.
package final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    // `jobs` and `stopping` are guarded by `condition`.
    private let condition = ThreadCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    package init(name: String) {
        NamedThread.start(name) { [self] in runJobs() }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread exit once the jobs already queued have run.
    package func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}
