import Foundation
import Testing
import TestSupport

/// `cloudplayerd play` killed with SIGKILL at a random moment, again and again: after each kill
/// every record in the cache vouches only for bytes equal to the origin's. What the WebDAV kill
/// test and the cloud sources' share.
enum KillLoop {
    /// Runs `rounds` plays (`arguments(round, start)`: the command line of round `round`,
    /// starting `start` seconds in), each killed 0.1–0.9 s after the round's first bytes are
    /// recorded (so a slow start on a busy machine still dies mid-download, not before it);
    /// returns the wrong bytes seen.
    static func run(rounds: Int, cache: CacheInspector, origin: Data, startsBefore seconds: Int,
                    arguments: (_ round: Int, _ start: Int) -> [String]) async throws -> Int {
        var generator = SystemRandomNumberGenerator()
        var wrongBytes = 0
        for round in 0..<rounds {
            let recorded = cache.entries.reduce(Int64(0)) { $0 + $1.recordedBytes }
            let player = try ChildProcess(BuiltProducts.cloudplayerd, arguments(round, Int.random(in: 0..<seconds, using: &generator)),
                                          environment: BuiltProducts.isolation)
            // (A bound on the wait, not on the test's speed: a player that never records is a failure.)
            var waited = 0
            while kill(player.pid, 0) == 0 && cache.entries.reduce(Int64(0), { $0 + $1.recordedBytes }) == recorded {
                waited += 1
                if waited == 6_000 {
                    Issue.record("round \(round): no bytes recorded in 120 s")
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 100..<900, using: &generator)))
            player.signal(SIGKILL)
            _ = await player.wait()
            for entry in cache.entries {
                let check = try cache.compare(entry, with: origin)
                #expect(check.wrong == 0, "round \(round): \(check.wrong) wrong bytes recorded")
                wrongBytes += check.wrong
            }
        }
        return wrongBytes
    }
}
