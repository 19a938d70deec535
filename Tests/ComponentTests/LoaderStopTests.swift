import Base
import Foundation
import Loader
import Testing
import TestSupport

/// A loader's stop waits for the cache's last commits without holding a thread of the pool those
/// commits run on: it used to wait on one of the `BlockingPool`'s four threads, and four stops at
/// once (tests side by side in one process, on a busy disk) took all four, queued their own
/// commits behind themselves, and left each last range unrecorded until the deadline.
struct LoaderStopTests {
    @Test("a loader stops while the only thread of its commit pool is busy: the stop itself takes no thread")
    func stopTakesNoPoolThread() async throws {
        // A pool of the test's own, so that holding its thread holds up no other test.
        let pool = BlockingPool(threads: 1)
        let loader = LoaderActor(settings: LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory()), commitPool: pool)
        // A job that holds the thread until the stop has returned (at most 30 s: then it says so).
        let release = DispatchSemaphore(value: 0)
        let running = Locked(false), timedOut = Locked(false)
        pool.submit {
            running.withLock { $0 = true }
            if release.wait(timeout: .now() + 30) == .timedOut { timedOut.withLock { $0 = true } }
        }
        #expect(try await eventually { running.withLock { $0 } }, "the job never ran")
        await loader.shutdown()
        let gaveUp = timedOut.withLock { $0 }
        release.signal()
        #expect(!gaveUp, "the stop waited for the pool's thread until the job gave up")
    }
}
