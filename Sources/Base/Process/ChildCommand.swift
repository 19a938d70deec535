import CSpawnShim
import Glibc

/// Runs a program to its end and returns what it printed — for the config's secret commands —
/// with posix_spawn rather than Foundation's `Process`: the child starts with no signal blocked
/// and default handlers (a mask inherited from the spawning thread cannot hold back its
/// `timeout`), gets no descriptor of ours but 0–2, and Base links no Foundation.
package enum ChildCommand {
    /// How the program ended, and its standard output.
    package struct Outcome: Sendable {
        package var output: [UInt8]
        /// The exit status, when it exited.
        package var status: Int32?
        /// The signal that ended it, when one did.
        package var signal: Int32?
    }

    /// Why it could not be started: the `errno` of the step that failed.
    package struct SpawnError: Error {
        package var code: Int32
    }

    /// Runs `path` with `arguments`; standard input is ours, standard error goes to /dev/null.
    /// Blocks until the program ends and its output is closed: call it from a thread that may block.
    package static func run(_ path: String, _ arguments: [String]) throws(SpawnError) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard cspawn_cloexec_pipe(&ends) == 0 else { throw SpawnError(code: errno) }
        defer { close(ends[0]) }
        let pid: pid_t
        do {
            defer { close(ends[1]) }
            pid = try spawn(path, arguments, output: ends[1])
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? Outcome(output: output, status: (status >> 8) & 0xff, signal: nil)
            : Outcome(output: output, status: nil, signal: signal)
    }

    private static func spawn(_ path: String, _ arguments: [String], output: Int32) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var failed = posix_spawn_file_actions_adddup2(&actions, output, 1)
        failed |= posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        failed |= cspawn_close_from(&actions, 3)
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
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argv in
            posix_spawn(&pid, path, &actions, &attributes, argv.baseAddress!, environ)
        }
        guard spawned == 0 else { throw SpawnError(code: spawned) }
        return pid
    }
}
