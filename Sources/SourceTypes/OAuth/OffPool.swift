import Foundation

/// Runs blocking work — a token file's fsync, a secret command — on a thread of its own, so it
/// never holds a thread of Swift's cooperative pool.
package enum OffPool {
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
