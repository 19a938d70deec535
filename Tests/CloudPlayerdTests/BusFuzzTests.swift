import Foundation
import Testing
import TestSupport

/// A fuzzing client (`cloudplayerd-busbench --fuzz`) sends random and malformed calls to every
/// interface the daemon exports — wrong signatures, unknown members, interfaces and paths, odd
/// values, arrays of half a million elements — while it plays: every call is answered, and the
/// music goes on.
@Suite(.timeLimit(.minutes(5)))
struct BusFuzzTests {
    @Test("random and malformed calls on every interface: all answered, and playback goes on", arguments: [UInt64(7), 1234])
    func fuzzWhilePlaying(seed: UInt64) async throws {
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": try Fixtures.shared.scratchDirectory().path]) { $1 })
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd"))
        func playerctl(_ arguments: String...) async throws -> String {
            try await bus.run("playerctl", ["-p", "cloudplayerd"] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try await playerctl("loop", "Track")
        _ = try await playerctl("open", try await Fixtures.shared.url(.longMP3).absoluteString)
        for _ in 0..<200 where try await playerctl("status") != "Playing" { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try await playerctl("status") == "Playing")

        let fuzz = try await bus.run(BuiltProducts.busbench, ["--address", bus.address, "--fuzz", "500", "--seed", String(seed)])
        #expect(fuzz.status == 0, "\(fuzz.stdout) \(fuzz.stderr)")
        #expect(fuzz.stdout.contains(" 0 unanswered"), "\(fuzz.stdout)")

        #expect(try await playerctl("status") == "Playing", "still playing")
        let before = Double(try await playerctl("position")) ?? -1
        var after = before
        // On, or past the end of the 60 s track and round again (it loops) on a slow run.
        let movesOn = try await eventually {
            after = Double(try await playerctl("position")) ?? -1
            return after > before || before - after > 30
        }
        #expect(movesOn, "the position moves on: \(before) → \(after)")
        let status = try await bus.run(BuiltProducts.cloudplayerctl, ["status"])
        #expect(status.status == 0 && status.stdout.hasPrefix("Playing"), "\(status.stdout)")
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "and it still stops cleanly: \(ended.ending)")
        await bus.stop()
    }
}
