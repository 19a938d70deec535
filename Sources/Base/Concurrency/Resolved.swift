/// A value made on first use and kept — a source's credentials, read from a file or a command
/// once for all its requests. One making at a time (`SharedWork`); a failure is not kept, so
/// the next use tries again.
package final class Resolved<Value: Sendable>: Sendable {
    private let kept = Locked<Value?>(nil)
    private let making = SharedWork<Value>()

    package init() {}

    /// The value, made by `make` if none is kept.
    package nonisolated(nonsending) func value(_ make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let known = kept.withLock({ $0 }) { return known }
        return try await making.run { [kept] in
            if let known = kept.withLock({ $0 }) { return known }  // made by a run that just ended
            let made = try await make()
            kept.withLock { $0 = made }
            return made
        }
    }

    /// Drops the kept value if `isStale` says so (a token the server refused): the next use
    /// makes it again. A making under way is not affected.
    package func forget(if isStale: (Value) -> Bool) {
        kept.withLock { value in
            if let known = value, isStale(known) { value = nil }
        }
    }
}
