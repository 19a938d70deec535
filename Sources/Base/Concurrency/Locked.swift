/// State behind a lock.
///
/// A pthread mutex (`ThreadCondition`'s), not `Synchronization.Mutex`: on Linux the latter locks
/// with raw futexes that ThreadSanitizer cannot see, so it reports every access it guards as a
/// race, and a sanitizer run could no longer tell a real race from those.
package final class Locked<State>: @unchecked Sendable {
    private let lock = ThreadCondition()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try lock.withLock { try body(&state) }
    }
}
