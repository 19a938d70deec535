import Foundation

/// `mpc` (Debian's, on libmpdclient) against any MPD-speaking server: the reference command-line
/// client, one short connection per call. The host, port and password go in the environment
/// (MPD_HOST=password@host, MPD_PORT), not the arguments, so no password shows in a process list.
public enum MPC {
    /// Runs `mpc ARGUMENTS` against 127.0.0.1:`port`; the result holds its output and status
    /// (a refused command or a wrong password: non-zero, the reason on standard error).
    public static func run(_ arguments: [String], port: Int, password: String? = nil) async throws -> ProcessResult {
        try await ChildProcess.run("mpc", arguments, environment: environment(port: port, password: password))
    }

    /// Like `run`, and throws with mpc's standard error unless it succeeded.
    @discardableResult
    public static func check(_ arguments: [String], port: Int, password: String? = nil) async throws -> ProcessResult {
        try await ChildProcess.check("mpc", arguments, environment: environment(port: port, password: password))
    }

    static func environment(port: Int, password: String?) -> [String: String] {
        ["MPD_HOST": password.map { "\($0)@127.0.0.1" } ?? "127.0.0.1", "MPD_PORT": String(port)]
    }
}

/// Clients in python against any MPD-speaking server: `Tests/MPDTools/mpd2_client.py` on
/// python-mpd2 (PyPI), the library most MPD scripts and several clients use, and
/// `mpd_raw.py`, which sends protocol lines as they are and prints the answers as they come.
/// The password goes in the environment (MPD_PASSWORD).
public enum MPDPythonClient {
    /// `mpd2_client.py ACTION` to its end: `summary`, `idle` (connects, makes a change on a
    /// second connection, prints `changed=…` lines), `browse` (a library browser's calls).
    public static func run(_ action: String, port: Int, password: String? = nil,
                           extra: [String] = []) async throws -> ProcessResult {
        try await ChildProcess.run("python3", [MPDTools.script("mpd2_client.py"), "--port", String(port)] + extra + [action],
                                   environment: environment(password))
    }

    /// `mpd2_client.py ACTION` started and left running (an `idle --idle-only` that waits for a
    /// change the test makes): wait for it with `wait()`, read it with `outputSoFar()`.
    public static func start(_ action: String, port: Int, password: String? = nil,
                             extra: [String] = []) throws -> ChildProcess {
        try ChildProcess("python3", [MPDTools.script("mpd2_client.py"), "--port", String(port)] + extra + [action],
                         environment: environment(password))
    }

    /// The greeting and each line's raw answer from 127.0.0.1:`port` (`mpd_raw.py`): for
    /// comparing two servers' answers to the same lines. Throws if the connection broke.
    public static func exchange(_ lines: [String], port: Int, password: String? = nil) async throws -> String {
        let result = try await ChildProcess.check("python3", [MPDTools.script("mpd_raw.py"), "--port", String(port)] + lines,
                                                  environment: environment(password))
        return result.stdout
    }

    private static func environment(_ password: String?) -> [String: String] {
        password.map { ["MPD_PASSWORD": $0] } ?? [:]
    }
}
