import CSpawnShim
import Glibc

/// Runs a program to its end and returns what it printed — for the config's secret commands —
/// with posix_spawn rather than Foundation's `Process`: the child starts with no signal blocked
/// and default handlers (a mask inherited from the spawning thread cannot hold back its
/// `timeout`), gets no descriptor of ours but 0–2 (and the script on 3), and Base links no
/// Foundation.
package enum ChildCommand {
    /// How the program ended, and its standard output.
    package struct Outcome: Sendable {
        package var output: [UInt8]
        /// The exit status, when it exited.
        package var status: Int32?
        /// The signal that ended it, when one did.
        package var signal: Int32?
        /// It printed more than the limit: it was stopped, and `output` is cut there.
        package var overflowed = false
    }

    /// Why it could not be started: the `errno` of the step that failed.
    package struct SpawnError: Error {
        package var code: Int32
    }

    /// Runs `path` with `arguments` and exactly `environment` (`NAME=value`); standard input is
    /// ours, standard error goes to /dev/null. `script`, when given, is readable on descriptor 3
    /// (`/dev/fd/3`) and nowhere else: a shell reads its commands there, so they never appear in
    /// its arguments, which `ps` shows every local user. Output past `outputLimit` bytes stops
    /// the program (SIGTERM, which `timeout` passes on) and sets `overflowed`. Blocks until the
    /// program ends and its output is closed: call it from a thread that may block.
    package static func run(_ path: String, _ arguments: [String], environment: [String], script: String? = nil,
                            outputLimit: Int = Int.max) throws(SpawnError) -> Outcome {
        var output: [Int32] = [-1, -1]
        guard cspawn_cloexec_pipe(&output) == 0 else { throw SpawnError(code: errno) }
        defer { if output[0] >= 0 { close(output[0]) } }
        var input: [Int32] = [-1, -1]
        if script != nil {
            guard cspawn_cloexec_pipe(&input) == 0 else {
                close(output[1])
                throw SpawnError(code: errno)
            }
        }
        let pid: pid_t
        do {
            defer {
                close(output[1])
                if input[0] >= 0 { close(input[0]) }
            }
            pid = try spawn(path, arguments, environment: environment, output: output[1], script: input[0])
        }
        if let script {
            // A script is a few lines (the config file's one setting): it fits the pipe's buffer,
            // so writing it all before reading the output cannot wait for the child.
            writeAll(script, to: input[1])
            close(input[1])
        }
        var outcome = Outcome(output: [], status: nil, signal: nil)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            outcome.output += buffer[..<count]
            if outcome.output.count > outputLimit {
                outcome.output.removeLast(outcome.output.count - outputLimit)
                outcome.overflowed = true
                // Closed first: a writer that outlives the signal gets SIGPIPE, not a full pipe.
                close(output[0])
                output[0] = -1
                kill(pid, SIGTERM)
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift does not import.
        let signal = status & 0x7f
        if signal == 0 { outcome.status = (status >> 8) & 0xff } else { outcome.signal = signal }
        return outcome
    }

    /// The variables of our environment named in `names`, as `NAME=value`.
    package static func environment(keeping names: [String]) -> [String] {
        names.compactMap { name in getenv(name).map { "\(name)=\(String(cString: $0))" } }
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    private static func spawn(_ path: String, _ arguments: [String], environment: [String], output: Int32,
                              script: Int32) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var failed = posix_spawn_file_actions_adddup2(&actions, output, 1)
        failed |= posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if script >= 0 { failed |= posix_spawn_file_actions_adddup2(&actions, script, 3) }
        failed |= cspawn_close_from(&actions, script >= 0 ? 4 : 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        failed |= posix_spawnattr_setsigmask(&attributes, &noSignals)
        failed |= posix_spawnattr_setsigdefault(&attributes, &allSignals)
        failed |= posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        guard failed == 0 else { throw SpawnError(code: EINVAL) }

        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup($0) }
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argv in
            (envp + [nil]).withUnsafeBufferPointer { envp in
                posix_spawn(&pid, path, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
            }
        }
        guard spawned == 0 else { throw SpawnError(code: spawned) }
        return pid
    }
}
