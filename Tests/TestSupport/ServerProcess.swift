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
        serverProcesses().reduce(0) { $0 + (kill($1, number) == 0 ? 1 : 0) }
    }

    /// The server's processes: the shell's children that are neither the lifeline's `cat` nor a
    /// shell of their own.
    func serverProcesses() -> [pid_t] {
        children().others.filter { $0.name != "sh" }.map(\.pid)
    }

    /// The server has ended: the lifeline's `cat`, started after the server, runs, and no other
    /// child does (a zombie not yet reaped is none).
    var serverEnded: Bool {
        let (lifeline, others) = children()
        return lifeline && others.isEmpty
    }

    /// The shell's live children: whether the lifeline's `cat` is among them, and the others.
    private func children() -> (lifeline: Bool, others: [(pid: pid_t, name: String)]) {
        let shell = watchdog.pid
        let listed = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        var lifeline = false
        var others: [(pid: pid_t, name: String)] = []
        for child in listed.split(separator: " ").compactMap({ pid_t($0) }) {
            // /proc/PID/stat: "PID (comm) STATE …"; the name may hold spaces, the state follows its ')'.
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  let state = stat[stat.index(after: close)...].dropFirst().first, state != "Z" else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            if name == "cat" { lifeline = true } else { others.append((child, name)) }
        }
        return (lifeline, others)
    }

    /// What the server (and its shell) printed to standard error so far: why it did not come up.
    public func errorSoFar() -> String {
        watchdog.errorSoFar()
    }
}
