import Glibc

/// Threads of our own, started with a name the system shows (`top -H`, /proc, gdb, bench/soak's
/// thread list): plain pthreads, so no Foundation `Thread` — and its ICU-backed Foundation — is
/// linked for the handful of threads the daemon runs (sd-bus, decoders, pinned actors).
package enum NamedThread {
    /// Starts a detached thread that runs `body` under `name` (the kernel keeps 15 bytes of it).
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, entry, context)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    /// Where each thread starts: names itself, runs its body.
    private static let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
        nameThisThread(start.name)
        start.body()
        return nil
    }

    /// What `pthread_setname_np` does (Swift's Glibc does not declare it): the name, cut to the
    /// kernel's 15 bytes, written to this thread's `comm` (proc(5)).
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    private final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
