import Config
import Foundation
import Testing
import TestSupport

/// The security review's findings about secret commands and files (issue 27): `ps` shows no
/// command text, a command sees a small fixed environment, and what a command prints or a file
/// holds is capped.
@Suite(.timeLimit(.minutes(2)))
struct SecretCommandTests {
    @Test("while a password_command runs, no process's arguments (ps -eo args) carry its text")
    func commandNotInArguments() async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let started = folder.appendingPathComponent("started")
        let fifo = folder.appendingPathComponent("release")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let marker = "PLAINPW\(UInt32.random(in: 1...UInt32.max))"
        // The command waits on a pipe (the shell's builtin `read`: no process of its own) until
        // the test has looked at every process's arguments.
        let command = ": \(marker); touch '\(started.path)'; read line < '\(fifo.path)'; echo \"$line\""
        let secret = Task { try await Secret.Origin.command(command, setting: "password_command of source 'dav2'").resolve() }
        #expect(try await eventually(within: 30) { FileManager.default.fileExists(atPath: started.path) }, "the command never ran")
        let listing = try await ChildProcess.check("ps", ["-eo", "args"])
        #expect(!listing.stdout.contains(marker), "ps shows the command: \(listing.stdout.split(separator: "\n").filter { $0.contains(marker) })")
        #expect(listing.stdout.contains("/bin/sh /dev/fd/3"), "the command's shell is not there: \(listing.stdout)")
        try await Task.detached {
            let handle = try FileHandle(forWritingTo: fifo)
            handle.write(Data("s3cret\n".utf8))
            try handle.close()
        }.value
        #expect(try await secret.value.reveal() == "s3cret")
    }

    @Test("a secret command sees PATH and HOME but not the rest of the daemon's environment (AWS_* keys and the like)")
    func fixedEnvironment() async throws {
        setenv("AWS_SECRET_ACCESS_KEY_CLOUDPLAYERD_TEST", "leaked", 1)
        let seen = try await Secret.Origin.command(#"printf '%s|%s|%s' "${AWS_SECRET_ACCESS_KEY_CLOUDPLAYERD_TEST:-none}" "$HOME" "${PATH:+path}""#).resolve()
        #expect(seen.reveal() == "none|\(ProcessInfo.processInfo.environment["HOME"] ?? "")|path")
    }

    @Test("a command printing without end, or /dev/zero as password_file, is one clear error naming the setting, not all the memory")
    func outputCapped() async throws {
        do {
            _ = try await Secret.Origin.command("cat /dev/zero", setting: "password_command of source 'dav2'").resolve()
            Issue.record("an endless command gave a secret")
        } catch {
            #expect("\(error)".hasSuffix("password_command of source 'dav2' printed more than 64 KiB, which no secret is"), "\(error)")
        }
        do {
            _ = try await Secret.Origin.file("/dev/zero", setting: "password_file of source 'dav2'").resolve()
            Issue.record("/dev/zero gave a secret")
        } catch {
            #expect("\(error)".contains("password_file of source 'dav2': /dev/zero is larger than 64 KiB"), "\(error)")
        }
        let exactly = String(repeating: "x", count: 64 << 10)
        #expect(try await Secret.Origin.command("head -c 65536 /dev/zero | tr '\\0' x").resolve().reveal() == exactly)
    }
}
