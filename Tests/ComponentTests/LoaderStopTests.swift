import Base
import Foundation
import Loader
import Model
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

    @Test("a download's commit queued behind a busy pool: the stop waits for it (holding no thread), and the next run finds the bytes recorded")
    func stopRecordsAQueuedCommit() async throws {
        let server = try await LoggingHTTPServer()
        defer { Task { await server.stop() } }
        try server.publish(Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }), at: "track.mp3")
        let location = TrackLocation(url: server.baseURL.appendingPathComponent("track.mp3"))
        let cache = try Fixtures.shared.scratchDirectory()
        let pool = BlockingPool(threads: 1)
        let loader = LoaderActor(settings: LoaderSettings(cacheDirectory: cache), commitPool: pool)
        // The pool's one thread held: the download's commit can only queue behind the job.
        let release = DispatchSemaphore(value: 0)
        let running = Locked(false)
        pool.submit {
            running.withLock { $0 = true }
            _ = release.wait(timeout: .now() + 30)
        }
        #expect(try await eventually { running.withLock { $0 } }, "the job never ran")
        let head = try await loader.bytes(in: 0..<4096, of: location)
        #expect(head.count == 4096)
        let before = await loader.cachedRanges(of: location)
        #expect(before?.ranges.contains { $0.contains(0) && $0.upperBound >= 4096 } != true, "recorded while the pool was held: \(String(describing: before))")
        // The stop begins with the commit still queued; the thread is let go while it waits.
        let stopping = Task { await loader.shutdown() }
        release.signal()
        await stopping.value
        let next = LoaderActor(settings: LoaderSettings(cacheDirectory: cache))
        let recorded = await next.cachedRanges(of: location)
        #expect(recorded?.ranges.contains { $0.contains(0) && $0.upperBound >= 4096 } == true, "recorded: \(String(describing: recorded))")
        await next.shutdown()
    }
}
