import Foundation

/// A second user of this machine, for the tests that attack as another local user would (an MPD
/// client of someone else's): `cpd-stranger`, a system user with no home and no shell, made once
/// with `useradd` when a test first asks and kept (tests of other processes may be using it; CI
/// starts each run on a fresh machine). Only root can make it and act as it — CI runs as root.
public enum StrangerAccount {
    public static let name = "cpd-stranger"

    /// Whether this process can make the user and run programs as it.
    public static var available: Bool { getuid() == 0 }

    /// The user's uid and gid, made if it is not there.
    public static func ids() async throws -> (uid: UInt32, gid: UInt32) {
        try await made.value
    }

    /// `executable` with `arguments` as the stranger: its uid and gid, no other group, no
    /// capability (setpriv).
    public static func command(_ executable: String, _ arguments: [String]) async throws -> (String, [String]) {
        let (uid, gid) = try await ids()
        return ("setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                            "--no-new-privs", executable] + arguments)
    }

    /// A python script of Tests/MPDTools run as the stranger by Debian's own interpreter (a
    /// pyenv one lives under /root, which the stranger cannot enter), the script's text given
    /// whole (`-c`: the checkout may be in a folder the stranger cannot read either); its
    /// standard input is the test process's lifeline, so it ends when the test does.
    public static func python(_ script: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess {
        let text = try String(contentsOfFile: MPDTools.script(script), encoding: .utf8)
        let (executable, all) = try await command("/usr/bin/python3", ["-c", text] + arguments)
        return try ChildProcess(executable, all, environment: environment, input: .lifeline)
    }

    private static let made = Task<(uid: UInt32, gid: UInt32), any Error> {
        guard available else { throw TestSupportError("making a second user needs root (CI runs as root)") }
        for _ in 0..<20 {
            if let found = lookUp() { return found }
            // Another test process may be making it at this moment: useradd then fails (its
            // lock, or the name taken); the next look-up finds it.
            _ = try await ChildProcess.run("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
        }
        throw TestSupportError("could not make the user \(name)")
    }

    private static func lookUp() -> (uid: UInt32, gid: UInt32)? {
        guard let entry = getpwnam(name) else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
}
