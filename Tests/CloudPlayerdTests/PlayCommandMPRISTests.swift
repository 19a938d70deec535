import Foundation
import Testing
import TestSupport

/// `cloudplayerd play` publishes MPRIS while it plays.
@Suite(.timeLimit(.minutes(2)))
struct PlayCommandMPRISTests {
    @Test("play is controlled over MPRIS: Next moves on, Stop ends it; beside a daemon it takes an instance name")
    func playIsControllable() async throws {
        let bus = try await DBusTestBus()
        let first = try await Fixtures.shared.url(.vbrMP3)
        let second = try await Fixtures.shared.url(.opus)
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"], environment: bus.environment)
        #expect(try await bus.waitForName(MPRISTests.name))
        let play = try ChildProcess(BuiltProducts.cloudplayerd, ["play", "--output", "null", first.path, second.path],
                                    environment: bus.environment)
        let instance = "\(MPRISTests.name).instance\(play.pid)"
        #expect(try await bus.waitForName(instance))
        let target = "cloudplayerd.instance\(play.pid)"
        while !play.outputSoFar().contains("Playing vbr.mp3") { try await Task.sleep(for: .milliseconds(20)) }
        _ = try await bus.run("playerctl", ["-p", target, "next"])
        while !play.outputSoFar().contains("Playing stereo.opus") { try await Task.sleep(for: .milliseconds(20)) }
        _ = try await bus.run("playerctl", ["-p", target, "stop"])
        let result = await play.wait()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try await bus.waitForName(instance, present: false))
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }
}
