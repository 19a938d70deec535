import Foundation

/// A server a test rig runs in the background (rclone, PulseAudio, dbus-daemon), stopped when the
/// test process ends however it ends: a shell starts it, waits on the `Lifeline`, then stops it.
/// Polling "is the test process alive" instead hung CI: a finished runner not yet reaped is a
/// zombie, still alive to `kill -0`, and its runner waited on it.
public final class ServerProcess: Sendable {
    private let watchdog: ChildProcess

    /// `command` is one simple shell command that runs the server in the foreground (no `;`,
    /// pipe or `&&`: the shell must know the server's own pid); `$1`, `$2`, … in it are
    /// `arguments` (so paths and passwords need no quoting).
    public init(_ name: String, command: String, arguments: [String] = [],
                environment: [String: String] = [:]) throws {
        // The TERM trap comes first, so no moment leaves a server nobody stops. A server is
        // stopped with TERM, and KILL 5 s later if it is still there; `ours` keeps a pid reused
        // after the server ended on its own from being signalled. INT, QUIT and HUP sent to the
        // runner's process group (Ctrl-C) do not end the watchdog before it stopped its server.
        let script = """
            ours() { grep -q "^PPid:[[:space:]]*$$\\$" "/proc/$1/status" 2>/dev/null; }
            finish() {
                trap '' TERM
                server=${server:-$!}
                [ -n "${lifeline:-}" ] && kill "$lifeline" 2>/dev/null
                if [ -n "$server" ] && ours "$server"; then
                    kill "$server" 2>/dev/null
                    (sleep 5; ours "$server" && kill -KILL "$server") 2>/dev/null &
                    killer=$!
                    wait "$server"
                    kill "$killer" 2>/dev/null
                fi
                exit 0
            }
            trap finish TERM
            exec 3<&0 </dev/null
            \(command) 3<&- &
            server=$!
            cat <&3 >/dev/null 3<&- &
            lifeline=$!
            exec 3<&-
            trap '' INT QUIT HUP
            wait "$lifeline"
            finish
            """
        watchdog = try ChildProcess("/bin/sh", ["-c", script, name] + arguments, environment: environment,
                                    input: .lifeline)
    }

    /// Stops the server now rather than at the end of the test process, and waits until it is gone.
    public func stop() async {
        watchdog.signal(SIGTERM)
        _ = await watchdog.wait()
    }

    /// Sends `number` to the server itself, not to its shell: SIGSTOP and SIGCONT freeze and thaw
    /// it, as a laptop's sleep or a stalled machine does. The server is the shell's child that is
    /// neither the lifeline's `cat` nor a shell of its own.
    /// Returns how many processes it reached: a freeze that reached none froze nothing.
    @discardableResult
    public func signalServer(_ number: Int32) -> Int {
        let shell = watchdog.pid
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        var reached = 0
        for child in children.split(separator: " ").compactMap({ pid_t($0) }) {
            let name = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if let name, name != "cat", name != "sh", kill(child, number) == 0 { reached += 1 }
        }
        return reached
    }

    /// What the server (and its shell) printed to standard error so far: why it did not come up.
    public func errorSoFar() -> String {
        watchdog.errorSoFar()
    }
}
