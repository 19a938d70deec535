import Foundation

/// A server a test rig runs in the background (rclone, PulseAudio, dbus-daemon), stopped when the
/// test process ends however it ends: a shell starts it, waits on the `Lifeline`, then kills it.
/// Polling "is the test process alive" instead hung CI: a finished runner not yet reaped is a
/// zombie, still alive to `kill -0`, and its runner waited on it.
public final class ServerProcess: Sendable {
    private let watchdog: ChildProcess

    /// `command` is a shell command line that runs the server in the foreground; `$1`, `$2`, …
    /// in it are `arguments` (so paths and passwords need no quoting).
    public init(_ name: String, command: String, arguments: [String] = [],
                environment: [String: String] = [:]) throws {
        let script = """
            exec 3<&0 </dev/null
            \(command) 3<&- &
            server=$!
            cat <&3 >/dev/null 3<&- &
            lifeline=$!
            exec 3<&-
            trap 'kill "$server" "$lifeline" 2>/dev/null; wait "$server"; exit 0' TERM
            wait "$lifeline"
            kill "$server" 2>/dev/null
            """
        watchdog = try ChildProcess("/bin/sh", ["-c", script, name] + arguments, environment: environment,
                                    lifeline: true)
    }

    /// Stops the server now rather than at the end of the test process, and waits until it is gone.
    public func stop() async {
        watchdog.signal(SIGTERM)
        _ = await watchdog.wait()
    }
}
