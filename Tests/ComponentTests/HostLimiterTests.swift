import Base
import Loader
import Testing

/// HostLimiter alone: room per host, handed on in order, and a host's quiet time holding every
/// download of that host (and no other).
@Suite(.timeLimit(.minutes(1))) struct HostLimiterTests {
    @Test("at most `limit` at once per host; a release lets the next one in; other hosts are not held up; a raised limit lets waiting ones in")
    func room() async {
        let limiter = HostLimiter(limit: 2)
        await limiter.acquire("a")
        await limiter.acquire("a")
        await limiter.acquire("b")  // another host: room of its own
        let entered = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            for waiter in 1...2 {
                group.addTask {
                    await limiter.acquire("a")
                    entered.withLock { $0.append(waiter) }
                }
                // Each waiter queued before the next is started.
                while limiter.waiting("a") < waiter { await Task.yield() }
            }
            #expect(entered.withLock { $0 }.isEmpty, "no room while two are running")
            limiter.release("a")
            while entered.withLock({ $0.count }) < 1 { await Task.yield() }
            #expect(entered.withLock { $0 } == [1])
            limiter.setLimit(3)
            await group.waitForAll()
        }
        #expect(entered.withLock { $0 } == [1, 2])
    }

    @Test("a host's quiet time holds every new download of it for as long as asked, and no other host")
    func quiet() async {
        let limiter = HostLimiter(limit: 4)
        let start = ContinuousClock.now
        limiter.quiet("busy", for: .seconds(2))
        let busyEntered = Locked(false)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await limiter.acquire("busy")
                busyEntered.withLock { $0 = true }
            }
            await limiter.acquire("calm")
            #expect(!busyEntered.withLock { $0 }, "another host comes in while this one is quiet")
        }
        #expect(start.duration(to: .now) >= .seconds(2))
    }
}
