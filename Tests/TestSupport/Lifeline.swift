import CSpawnShim
import Foundation

/// A pipe whose write end only this test process holds. A watchdog reading the other end gets
/// end-of-file the moment the process ends — exited, crashed or killed, and even while it is a
/// zombie its runner has not reaped yet, which `kill -0` cannot tell from a live process.
enum Lifeline {
    /// The read end, for `ChildProcess` to hand a watchdog as its standard input.
    static let readEnd: Int32 = {
        var ends: [Int32] = [-1, -1]
        // Both ends close on exec: only a watchdog gets the read end (dup2'd to its fd 0), and
        // no child ever holds the write end, or the pipe would outlive this process.
        guard cspawn_cloexec_pipe(&ends) == 0 else {
            fatalError("cannot make the test lifeline pipe: \(String(cString: strerror(errno)))")
        }
        return ends[0]
    }()
}
