import Base
import FoundationEssentials
import Glibc

extension Secret {
    /// Where a secret comes from, as the config file says: written inline, kept in a file,
    /// printed by a command (`pass show …`), or kept in the desktop's keyring. Files, commands
    /// and the keyring are read when used, so a changed password is picked up without restarting.
    /// Each but the inline one carries `setting`, how messages name it ("password_command of
    /// source 'dav2'"): an error names the setting, never a command's text, which may hold a
    /// password (`curl -u bob:PW …`) and would reach the journal, D-Bus and the library.
    package enum Origin: Sendable, Equatable {
        case inline(Secret)
        case file(String, setting: String = "a secret file")
        case command(String, setting: String = "a secret command")
        case keyring(KeyringQuery)

        /// The secret itself; a trailing newline is not part of it. Files and commands are read
        /// on the `BlockingPool`. A command taking longer than `timeout` seconds is stopped and
        /// is an error.
        package func resolve(timeout: Int = SecretCommand.timeout) async throws -> Secret {
            switch self {
            case .inline(let secret):
                return secret
            case .file(let path, let setting):
                return Secret(SecretText.trimmed(try await BlockingPool.shared.run { try Self.read(path, setting: setting) }))
            case .command(let command, let setting):
                return Secret(SecretText.trimmed(try await BlockingPool.shared.run {
                    try SecretCommand(text: command, setting: setting).run(timeout: timeout)
                }))
            case .keyring(let query):
                return try await query.resolve()
            }
        }

        /// The config keys that give the secret `key`: `key`, `key_file`, `key_command`, `key_keyring`.
        package static func keys(for key: String) -> Set<String> {
            [key, key + "_file", key + "_command", key + "_keyring"]
        }

        /// A secret file, read up to `SecretText.largest` bytes (a larger one is an error).
        private static func read(_ path: String, setting: String) throws -> String {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ConfigError(line: nil, "\(setting): cannot read \(path) (\(String(cString: strerror(errno))))")
            }
            defer { close(descriptor) }
            do throws(SecretText.ReadFailure) {
                return try SecretText.read(descriptor)
            } catch .tooLarge {
                throw ConfigError(line: nil, "\(setting): \(path) is larger than \(SecretText.largest >> 10) KiB, which no secret is")
            } catch .failed(let code) {
                throw ConfigError(line: nil, "\(setting): cannot read \(path) (\(String(cString: strerror(code))))")
            }
        }
    }
}
