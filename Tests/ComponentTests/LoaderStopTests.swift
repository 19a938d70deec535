import Base
import Foundation
import Loader
import Testing
import TestSupport

/// A loader's stop waits for the cache's last commits without holding a thread of the
/// `BlockingPool`, which those commits need: it used to wait on a thread of the pool, and four
/// stops at once (tests side by side in one process, on a busy disk) took all four threads,
/// queued their own commits behind themselves, and left each last range unrecorded.
struct LoaderStopTests {
    @Test("a loader stops while every thread of the BlockingPool is busy: its stop takes none of them")
    func stopTakesNoPoolThread() async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let loader = LoaderActor(settings: LoaderSettings(cacheDirectory: folder))
        // Jobs that hold the pool's threads until the stop has returned (at most 30 s: then they
        // say they were not released).
        let release = DispatchSemaphore(value: 0)
        let running = Locked(0), timedOut = Locked(0)
        let threads = 4
        for _ in 0..<threads {
            BlockingPool.shared.submit {
                running.withLock { $0 += 1 }
                if release.wait(timeout: .now() + 30) == .timedOut { timedOut.withLock { $0 += 1 } }
            }
        }
        #expect(try await eventually { running.withLock { $0 } == threads }, "the jobs never all ran")
        await loader.shutdown()
        let gaveUp = timedOut.withLock { $0 }
        for _ in 0..<threads { release.signal() }
        #expect(gaveUp == 0, "the stop waited for a thread of the pool until its jobs gave up")
    }
}
