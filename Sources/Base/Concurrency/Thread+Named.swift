import Foundation

extension Thread {
    /// Starts a thread that runs `body` under `name` as the system shows it (`top -H`, /proc,
    /// gdb, bench/soak's thread list). Foundation on Linux hands the kernel a name only when a
    /// thread sets its own; one set before `start()` stays inside Foundation, and the thread
    /// carries its creator's name instead (a dispatch worker's "com.apple.root.default-qos").
    package static func startNamed(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.start()
    }
}
