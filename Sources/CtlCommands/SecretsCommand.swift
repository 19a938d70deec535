import ArgumentParser
import Base
import Config
import Glibc
import Keyring

/// `cloudplayerctl secret set NAME KEY`: puts a password into the desktop's keyring where a
/// `*_keyring = { service = "NAME", account = "KEY" }` setting finds it — the item `secret-tool
/// store service NAME account KEY` makes. The password comes from standard input when that is
/// not a terminal (a script, `pass show x | …`), else from a prompt that does not echo it; never
/// from the command line, which `ps` and the shell's history show.
struct SecretsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Keeps passwords in the desktop's keyring (Secret Service) for *_keyring settings.",
        subcommands: [Set.self]
    )

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Stores a password under service=NAME account=KEY, read from standard input or a prompt without echo.",
            discussion: """
                A setting password_keyring = { service = "NAME", account = "KEY" } then finds it. \
                An item with the same service and account is replaced.
                """
        )

        @Argument(help: "The item's service attribute (e.g. nextcloud).")
        var name: String

        @Argument(help: "The item's account attribute (e.g. anna).")
        var key: String

        func run() async throws {
            ProcessGuard.holdingSecrets()
            let password: String
            do {
                password = try await BlockingPool.shared.run { [name, key] in try PasswordInput.read(prompt: "Password for \(name) \(key): ") }
            } catch {
                fail("\(error)", code: 1)
            }
            guard !password.isEmpty else { fail("no password given: nothing stored", code: 1) }
            let keyring = SecretService.session
            do {
                try await keyring.store(Secret(password), attributes: ["service": name, "account": key], label: "\(name) (\(key))",
                                        for: "the password of service=\(name) account=\(key)")
            } catch {
                await keyring.close()
                fail("\(error)", code: 1)
            }
            await keyring.close()
            say("Stored in the keyring: service=\(name) account=\(key)")
        }
    }
}

/// A password typed or piped in: from standard input when it is not a terminal (up to 64 KiB),
/// else one line read with the terminal's echo off (termios), the prompt on standard error.
enum PasswordInput {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func read(prompt: String) throws -> String {
        if isatty(0) == 0 { return SecretText.trimmed(try readAll()) }
        StandardStream.error.write(prompt)
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { throw Failure(description: "cannot set the terminal up for a password") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(0, TCSAFLUSH, &quiet) == 0 else { throw Failure(description: "cannot turn the terminal's echo off") }
        defer {
            tcsetattr(0, TCSAFLUSH, &saved)
            StandardStream.error.writeLine("")
        }
        return SecretText.trimmed(readLine(strippingNewline: true) ?? "")
    }

    private static func readAll() throws -> String {
        do throws(SecretText.ReadFailure) {
            return try SecretText.read(0)
        } catch .tooLarge {
            throw Failure(description: "standard input is larger than \(SecretText.largest >> 10) KiB, which no password is")
        } catch .failed {
            throw Failure(description: "cannot read standard input")
        }
    }
}
