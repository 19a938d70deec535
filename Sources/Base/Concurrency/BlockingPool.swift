import NIOPosix

/// Where blocking work runs — a secret's file or command, a token file read or synced, a line
/// read from the terminal: one bounded pool of threads of its own, so that no such wait holds a
/// thread of Swift's cooperative pool or an actor's own thread (the loader's, the library's)
/// that other work is queued behind.
///
/// Four threads, started on first use (a `play` of files on the disk never starts them). The
/// work is waiting, not computing — a disk sync, a `password_command` that waits for a keyring's
/// unlock prompt — so more threads than the machine has cores is right; four let three sources'
/// slow secrets wait at once while a token file is still read. Work beyond four waits its turn,
/// in order. The threads last as long as the process and need no stopping: exit does not wait
/// for them.
package final class BlockingPool: Sendable {
    package static let shared = BlockingPool(threads: 4)

    private let pool: NIOThreadPool

    /// The shared pool, or one of a test's own (its threads end when it is let go).
    package init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `body` on a thread of the pool and returns what it returns. A task cancelled before
    /// `body` gets its turn never runs it (`CancellationError`); once started, it runs to its end.
    package nonisolated(nonsending) func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }

    /// Runs `body` on a thread of the pool, soon, and does not wait for it: work whose end is
    /// reported by the work itself (a cache commit).
    package func submit(_ body: @escaping @Sendable () -> Void) {
        pool.submit { _ in body() }  // the pool never stops: no work is dropped
    }
}
