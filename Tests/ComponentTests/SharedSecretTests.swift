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

    private func lines(_ runs: URL, _ word: String) throws -> Int {
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
