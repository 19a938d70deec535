import CSpawnShim
import Foundation
import Synchronization

/// Runs programs for tests the way a shell would start them.
///
/// Foundation's `Process` spawns from whatever thread it is called on, and a child inherits that
/// thread's blocked signals: from a dispatch worker, SIGINT and SIGTERM arrive blocked and a
/// `parec` or a player under test can no longer be stopped. So this spawns with posix_spawn, an
/// empty signal mask and default handlers. Output goes to temporary files (no pipe can fill up
/// and stall the child); waiting happens on a thread of its own, never on the cooperative pool.
/// A child gets descriptors 0–2 and nothing else: one that outlived the test must not hold the
/// runner's output pipe (or the runner's sockets) open.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    private let outputURL: URL
    private let errorURL: URL
    /// The raw wait status, and when the waiter saw the process end (not when a test got round
    /// to hearing it: a busy test runner may take seconds for that).
    private let exit: Task<(Int32, ContinuousClock.Instant), Never>
    /// Set, under its lock, as the process is reaped: a signal after that could reach another
    /// process that was given the same pid.
    private let reaped = Reaped()

    /// What a child reads on its standard input.
    public enum Input: Sendable {
        case null
        case file(URL)
        /// The `Lifeline`: end-of-file when this test process ends (for a watchdog).
        case lifeline
    }

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                input: Input = .null) throws {
        outputURL = ScratchSpace.file(".out")
        errorURL = ScratchSpace.file(".err")
        let path = try Self.resolve(executable)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var failed: Int32 = 0
        switch input {
        case .null: failed |= posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let url): failed |= posix_spawn_file_actions_addopen(&actions, 0, url.path, O_RDONLY, 0)
        case .lifeline: failed |= posix_spawn_file_actions_adddup2(&actions, try Lifeline.readEnd(), 0)
        }
        failed |= posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        failed |= posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        failed |= cspawn_close_from(&actions, 3)
        guard failed == 0 else { throw TestSupportError("cannot prepare the start of \(executable)") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw TestSupportError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        let spawned = child
        let (stream, sink) = AsyncStream.makeStream(of: (Int32, ContinuousClock.Instant).self)
        let reaped = reaped
        let waiter = Thread {
            // Seen ended first (WNOWAIT), reaped under the lock `signal` takes.
            var info = siginfo_t()
            while waitid(P_PID, id_t(spawned), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let ended = ContinuousClock.now
            var raw: Int32 = 0
            reaped.flag.withLock { done in
                while waitpid(spawned, &raw, 0) < 0 && errno == EINTR {}
                done = true
            }
            sink.yield((raw, ended))
            sink.finish()
        }
        waiter.start()
        exit = Task { await stream.first { _ in true } ?? (0, .now) }
    }

    /// Sends a signal (SIGTERM by default); none once the process has ended.
    public func signal(_ number: Int32 = SIGTERM) {
        reaped.flag.withLock { done in
            if !done { kill(pid, number) }
        }
    }

    /// The process has ended (and been reaped).
    public var hasEnded: Bool { reaped.flag.withLock { $0 } }

    /// Waits for the process to end and returns what it printed.
    public func wait() async -> ProcessResult {
        let (raw, ended) = await exit.value
        let signalled = raw & 0x7F != 0
        let result = ProcessResult(
            status: signalled ? raw & 0x7F : (raw >> 8) & 0xFF,
            killedBySignal: signalled,
            endedAt: ended,
            stdout: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
        return result
    }

    /// Standard output so far (for a process still running).
    public func outputSoFar() -> String {
        (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// Standard error so far (a running daemon's log, to explain a failed expectation).
    public func errorSoFar() -> String {
        (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    }

    /// Runs a program to its end.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String] = [:], input: Input = .null) async throws -> ProcessResult {
        try await ChildProcess(executable, arguments, environment: environment, input: input).wait()
    }

    /// Runs a program that must succeed; throws with its standard error otherwise.
    @discardableResult
    public static func check(_ executable: String, _ arguments: [String],
                             environment: [String: String] = [:], input: Input = .null) async throws -> ProcessResult {
        let result = try await run(executable, arguments, environment: environment, input: input)
        guard result.status == 0, !result.killedBySignal else {
            throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result
    }

    static func resolve(_ executable: String) throws -> String {
        if executable.contains("/") { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestSupportError("\(executable) is not installed (run packaging/install-deps.sh)")
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Whether a child was reaped, shared with the thread that waits for it.
private final class Reaped: Sendable {
    let flag = Mutex(false)
}
