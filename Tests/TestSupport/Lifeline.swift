import CSpawnShim
import Foundation

/// A pipe whose write end only this test process holds. A watchdog reading the other end gets
/// end-of-file the moment the process ends — exited, crashed or killed, and even while it is a
/// zombie its runner has not reaped yet, which `kill -0` cannot tell from a live process.
enum Lifeline {
    /// The read end, for `ChildProcess` to hand a watchdog as its standard input.
    static func readEnd() throws -> Int32 {
        try made.get()
    }

    /// Made once, on first use. Both ends close on exec: only a watchdog gets the read end
    /// (dup2'd to its fd 0), and no child ever holds the write end, or the pipe would outlive
    /// this process.
    private static let made: Result<Int32, TestSupportError> = {
        var ends: [Int32] = [-1, -1]
        guard cspawn_cloexec_pipe(&ends) == 0 else {
            return .failure(TestSupportError("cannot make the test lifeline pipe: \(String(cString: strerror(errno)))"))
        }
        return .success(ends[0])
    }()
}
