import Base
import FoundationEssentials
import Glibc

/// A password or token. It prints as `<secret>` wherever it ends up — logs, errors, dumps — so a
/// slip cannot leak it; only `reveal()` gives the text, for the one header that carries it.
package struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private let value: String

    package init(_ value: String) {
        self.value = value
    }

    package func reveal() -> String { value }

    package var description: String { "<secret>" }
    package var debugDescription: String { "<secret>" }
}

extension Secret {
    /// Where a secret comes from, as the config file says: written inline, kept in a file, or
    /// printed by a command (`secret-tool lookup …`). Files and commands are read when used, so a
    /// changed password is picked up without restarting.
    package enum Origin: Sendable, Equatable {
        case inline(Secret)
        case file(String)
        case command(String)

        /// The secret itself; a trailing newline is not part of it. Files and commands are read
        /// on the `BlockingPool` (a command may wait for a keyring's unlock prompt). A command
        /// taking longer than `timeout` seconds is stopped and is an error.
        package func resolve(timeout: Int = commandTimeout) async throws -> Secret {
            switch self {
            case .inline(let secret):
                return secret
            case .file(let path):
                let data = try await BlockingPool.shared.run { FileManager.default.contents(atPath: path) }
                guard let data else { throw ConfigError(line: nil, "cannot read the secret file \(path)") }
                return Secret(Self.trimmed(String(decoding: data, as: UTF8.self)))
            case .command(let command):
                return Secret(Self.trimmed(try await BlockingPool.shared.run { try Self.run(command, timeout: timeout) }))
            }
        }

        private static func trimmed(_ text: String) -> String {
            var text = text
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            return text
        }

        /// How long a secret command may take (a keyring waiting for an unlock prompt that
        /// never comes must not hold a source or the scrobbler for ever).
        package static let commandTimeout = 30

        /// Runs `command` with `/bin/sh -c` and returns what it printed; its failure names the
        /// command, never its output. Run under `timeout` (GNU's or BusyBox's, found on the
        /// PATH), which kills the command's process group when it takes too long — with SIGKILL,
        /// which no inherited signal mask holds back, so no child in the group keeps the pipe open
        /// (timeout dies with its group). A grandchild that left the group (`setsid`) could still
        /// hold it: secret commands print and exit.
        private static func run(_ command: String, timeout: Int) throws -> String {
            let outcome: ChildCommand.Outcome
            do {
                outcome = try ChildCommand.run("/usr/bin/env", ["timeout", "-s", "KILL", String(timeout), "/bin/sh", "-c", command])
            } catch {
                throw ConfigError(line: nil, "cannot run the secret command '\(command)'")
            }
            if outcome.signal == SIGKILL {
                throw ConfigError(line: nil, "the secret command '\(command)' did not finish within \(timeout) s")
            }
            guard outcome.status == 0 else {
                throw ConfigError(line: nil, "the secret command '\(command)' failed (status \(outcome.status ?? outcome.signal ?? -1))")
            }
            return String(decoding: outcome.output, as: UTF8.self)
        }
    }
}
