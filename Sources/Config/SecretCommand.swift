import Base
import Glibc

/// A `*_command` secret run as little as it can be seen or can see: its text on a pipe that the
/// shell reads as its script (`/bin/sh /dev/fd/3`), so `ps` shows every local user no password of
/// it (what the command itself then runs is its own business); a small fixed environment — what
/// `secret-tool`, `pass` and `gpg` need, never the daemon's `AWS_*` keys or the like; under
/// `/usr/bin/timeout` by its full path (no PATH lookup decides what runs); its output capped.
package struct SecretCommand: Sendable {
    /// The command as the config file writes it: the shell's script.
    package var text: String
    /// How messages name it: "password_command of source 'dav2'".
    package var setting: String

    /// How long a secret command may take (a keyring waiting for an unlock prompt that never
    /// comes must not hold a source or the scrobbler for ever).
    package static let timeout = 30

    /// The variables a secret command sees, when the daemon has them: where things are, the
    /// session bus (`secret-tool`), gpg's and pass's folders, and the display a pinentry asks on.
    package static let environment = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "XDG_RUNTIME_DIR",
                                      "DBUS_SESSION_BUS_ADDRESS", "GNUPGHOME", "PASSWORD_STORE_DIR", "DISPLAY", "WAYLAND_DISPLAY"]

    /// Runs it and returns what it printed; its failures name the setting, never the command or
    /// its output. `timeout` kills the command's process group when it takes too long — with
    /// SIGKILL, which no inherited signal mask holds back, so no child in the group keeps the
    /// pipe open. A grandchild that left the group (`setsid`) could still hold it: secret
    /// commands print and exit. Blocks: run it on the `BlockingPool`.
    package func run(timeout: Int = Self.timeout) throws -> String {
        var environment = ChildCommand.environment(keeping: Self.environment)
        if !environment.contains(where: { $0.hasPrefix("PATH=") }) { environment.append("PATH=/usr/local/bin:/usr/bin:/bin") }
        let outcome: ChildCommand.Outcome
        do throws(ChildCommand.SpawnError) {
            outcome = try ChildCommand.run("/usr/bin/timeout", ["-s", "KILL", String(timeout), "/bin/sh", "/dev/fd/3"],
                                           environment: environment, script: text, outputLimit: SecretText.largest)
        } catch {
            throw ConfigError(line: nil, "\(setting) cannot be run (\(String(cString: strerror(error.code))))")
        }
        if outcome.overflowed {
            throw ConfigError(line: nil, "\(setting) printed more than \(SecretText.largest >> 10) KiB, which no secret is")
        }
        if outcome.signal == SIGKILL || outcome.status == 137 {
            throw ConfigError(line: nil, "\(setting) did not finish within \(timeout) s")
        }
        guard outcome.status == 0 else {
            throw ConfigError(line: nil, "\(setting) failed (status \(outcome.status ?? outcome.signal ?? -1))")
        }
        return String(decoding: outcome.output, as: UTF8.self)
    }
}
