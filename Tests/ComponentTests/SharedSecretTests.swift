import Base
import Config
import Foundation
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// A secret is read once for everyone who waits for it (issue 24): the requests of one source
/// that start together run its `password_command` once — one thread of the `BlockingPool`, not
/// one each — and a caller that gives up stops waiting at once while the read goes on for the next.
@Suite(.timeLimit(.minutes(2)))
struct SharedSecretTests {
    /// A command that notes each of its runs in `runs` (a line when it starts, another when it
    /// ends, after `seconds`) and then prints `secret`.
    private func counting(_ runs: URL, seconds: Int, secret: String) -> String {
        "echo start >> '\(runs.path)'; sleep \(seconds); echo end >> '\(runs.path)'; echo '\(secret)'"
    }

    /// As `counting`, but the command ends only once the file `gate` exists: when the test says.
    private func counting(_ runs: URL, until gate: URL, secret: String) -> String {
        "echo start >> '\(runs.path)'; until [ -e '\(gate.path)' ]; do sleep 0.05; done; echo end >> '\(runs.path)'; echo '\(secret)'"
    }

    func lines(_ runs: URL, _ word: String) throws -> Int {
        try String(contentsOf: runs, encoding: .utf8).split(separator: "\n").filter { $0 == word }.count
    }

    @Test("ten reads of a WebDAV source's files that start together run its password_command once, and each gets its bytes")
    func oneReadForTen() async throws {
        let files: [Fixtures.File] = [.vbrMP3, .cbrMP3, .secondMP3, .monoMP3, .opus, .secondOpus, .flac, .secondFLAC, .vorbis, .secondVorbis]
        let rig = try await StreamingRig(files)
        let runs = rig.directory.appendingPathComponent("runs")
        // Three seconds long: the ten are all waiting for it (at one, on a loaded machine, a late
        // request could come after it ended and run it again).
        let text = rig.configText().replacingOccurrences(of: "password = \"\(rig.server.password)\"",
                                                         with: "password_command = \"\(counting(runs, seconds: 3, secret: rig.server.password))\"")
        let configuration = try LoaderConfiguration.parse(text, relativeTo: rig.directory)
        let loader = LoaderActor(configuration: configuration)
        let heads = try await withThrowingTaskGroup(of: (Fixtures.File, [UInt8]).self) { group in
            for file in files {
                let location = configuration.sources.location(of: rig.url(file))
                group.addTask { (file, try await loader.bytes(in: 0..<64, of: location)) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for file in files { #expect(heads[file] == Array(try rig.origin(file).prefix(64)), "\(file)") }
        #expect(try lines(runs, "start") == 1, "the command ran for more than one request")
        await loader.shutdown()
    }

    @Test("a caller that gives up stops waiting while the command runs; the command goes on, and its secret serves the next caller")
    func cancelledWaiterLeaves() async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let runs = folder.appendingPathComponent("runs")
        let gate = folder.appendingPathComponent("gate")
        // The command runs until the test has seen the caller leave (a fixed 5 s was too short
        // for the cancellation's way through a loaded machine).
        let origin = Secret.Origin.command(counting(runs, until: gate, secret: "s3cret"))
        let secret = Resolved<Secret>()
        let first = Task { try await secret.value { try await origin.resolve() } }
        #expect(try await eventually(within: 30) { FileManager.default.fileExists(atPath: runs.path) }, "the command never ran")
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(try lines(runs, "end") == 0, "the caller waited for the command to end")
        #expect(FileManager.default.createFile(atPath: gate.path, contents: nil))
        #expect(try await secret.value { try await origin.resolve() }.reveal() == "s3cret")
        #expect(try lines(runs, "start") == 1, "the command ran again")
    }
}

/// A password corrected while the daemon runs is taken by the next request the server refuses:
/// the secret is read once more then, and again only when refused again (issue 50).
extension SharedSecretTests {
    @Test("a wrong password in password_file: refused (401); the file corrected, the next read succeeds without a restart or reload, the file read once more")
    func correctedPasswordFile() async throws {
        let rig = try await StreamingRig([.vbrMP3, .cbrMP3])
        let file = rig.directory.appendingPathComponent("dav.pass")
        try "wrong-\(UUID().uuidString.prefix(6))\n".write(to: file, atomically: true, encoding: .utf8)
        let text = rig.configText().replacingOccurrences(of: "password = \"\(rig.server.password)\"", with: "password_file = \"\(file.path)\"")
        let configuration = try LoaderConfiguration.parse(text, relativeTo: rig.directory)
        let loader = LoaderActor(configuration: configuration)
        let location = configuration.sources.location(of: rig.url(.vbrMP3))
        let refused = await #expect(throws: LoaderError.self) { try await loader.bytes(in: 0..<64, of: location) }
        #expect("\(String(describing: refused))".contains("401"), "\(String(describing: refused))")
        try (rig.server.password + "\n").write(to: file, atomically: true, encoding: .utf8)
        // The track refused first, then another: each asked anew.
        #expect(try await loader.bytes(in: 0..<64, of: location) == Array(try rig.origin(.vbrMP3).prefix(64)))
        let other = configuration.sources.location(of: rig.url(.cbrMP3))
        #expect(try await loader.bytes(in: 0..<64, of: other) == Array(try rig.origin(.cbrMP3).prefix(64)))
        await loader.shutdown()
    }

    @Test("a password_command that prints a wrong password, then the right one: the request refused is asked once more with the command run again; a right password is never read again")
    func correctedPasswordCommand() async throws {
        let rig = try await StreamingRig([.vbrMP3, .cbrMP3])
        let runs = rig.directory.appendingPathComponent("runs"), answer = rig.directory.appendingPathComponent("answer")
        try "wrong\n".write(to: answer, atomically: true, encoding: .utf8)
        let text = rig.configText().replacingOccurrences(of: "password = \"\(rig.server.password)\"",
                                                         with: "password_command = \"echo start >> '\(runs.path)'; cat '\(answer.path)'\"")
        let configuration = try LoaderConfiguration.parse(text, relativeTo: rig.directory)
        let loader = LoaderActor(configuration: configuration)
        await #expect(throws: LoaderError.self) { try await loader.bytes(in: 0..<64, of: configuration.sources.location(of: rig.url(.vbrMP3))) }
        #expect(try lines(runs, "start") == 2, "read, refused, read once more, refused: the answer stands")
        try (rig.server.password + "\n").write(to: answer, atomically: true, encoding: .utf8)
        for file in [Fixtures.File.vbrMP3, .cbrMP3] {
            #expect(try await loader.bytes(in: 0..<64, of: configuration.sources.location(of: rig.url(file))) == Array(try rig.origin(file).prefix(64)))
        }
        #expect(try lines(runs, "start") == 3, "read again once for the refused request; the right password kept for the next")
        await loader.shutdown()
    }
}

/// A reload reads every secret again, the config's text changed or not (issue 50): it is how a
/// user says "I changed the password" before any request was refused.
extension SharedSecretTests {
    @Test("a reload with the same config text runs the password_command again for the next request")
    func reloadRereads() async throws {
        let rig = try await StreamingRig([.vbrMP3, .cbrMP3])
        let runs = rig.directory.appendingPathComponent("runs")
        let text = rig.configText().replacingOccurrences(of: "password = \"\(rig.server.password)\"",
                                                         with: "password_command = \"echo start >> '\(runs.path)'; echo '\(rig.server.password)'\"")
        let configuration = try LoaderConfiguration.parse(text, relativeTo: rig.directory)
        let loader = LoaderActor(configuration: configuration)
        #expect(try await loader.bytes(in: 0..<64, of: configuration.sources.location(of: rig.url(.vbrMP3))) == Array(try rig.origin(.vbrMP3).prefix(64)))
        #expect(try lines(runs, "start") == 1)
        await loader.reload(settings: configuration.loader, sources: configuration.sources)
        #expect(try await loader.bytes(in: 0..<64, of: configuration.sources.location(of: rig.url(.cbrMP3))) == Array(try rig.origin(.cbrMP3).prefix(64)))
        #expect(try lines(runs, "start") == 2, "the reload kept the password read before it")
        await loader.shutdown()
    }
}
