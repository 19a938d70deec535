import CPulse

/// A `pa_threaded_mainloop`: its thread, its lock, and the one task waiting for the server.
///
/// libpulse calls back on the mainloop's thread with the lock held. A task that needs the server
/// to do something (connect, take bytes, finish a drain) suspends on a continuation that those
/// callbacks resume through `wake()` — so no thread of the cooperative pool ever blocks on
/// PulseAudio. The lock guards every C call and whatever the output keeps beside them, which is
/// what makes this class safe to share (`@unchecked Sendable`).
final class PulseMainloop: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The one task waiting for the server (a writer, a drain or a connect); guarded by the lock.
    private var waiter: CheckedContinuation<Bool, any Error>?

    init?() {
        guard let pointer = pa_threaded_mainloop_new() else { return nil }
        self.pointer = pointer
    }

    deinit {
        pa_threaded_mainloop_free(pointer)
    }

    var api: UnsafeMutablePointer<pa_mainloop_api> {
        pa_threaded_mainloop_get_api(pointer)
    }

    /// Starts the mainloop's thread; false if it could not be started.
    func start() -> Bool {
        pa_threaded_mainloop_start(pointer) >= 0
    }

    /// Stops the mainloop's thread. Called without the lock.
    func stop() {
        pa_threaded_mainloop_stop(pointer)
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pa_threaded_mainloop_lock(pointer)
        defer { pa_threaded_mainloop_unlock(pointer) }
        return try body()
    }

    /// Something happened on the server: the waiting task looks again. With the lock held.
    func wake() {
        let pending = waiter
        waiter = nil
        pending?.resume(returning: false)
    }

    /// Ends the wait, if a task waits, with `CancellationError` (the output is closed). With the
    /// lock held.
    func cancelWaiter() {
        let pending = waiter
        waiter = nil
        pending?.resume(throwing: CancellationError())
    }

    /// Suspends until `satisfied` (evaluated under the lock after every server event) is true.
    /// Called without the lock.
    func wait(until satisfied: () throws -> Bool) async throws {
        while true {
            let done = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                    locked {
                        do {
                            if Task.isCancelled { throw CancellationError() }
                            if try satisfied() { return continuation.resume(returning: true) }
                            waiter = continuation
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                }
            } onCancel: {
                locked { cancelWaiter() }
            }
            if done { return }
        }
    }
}
