import Foundation
import Testing
import TestSupport

/// Ctrl-C and SIGTERM stop playback cleanly: the process exits by itself, status 0.
@Suite struct SignalTests {
    @Test("SIGINT and SIGTERM stop a playing process cleanly", arguments: [SIGINT, SIGTERM])
    func stopsCleanly(_ number: Int32) async throws {
        // 60 s: the first file still plays when the signal comes, however slow the machine.
        let file = try await Fixtures.shared.url(.longMP3)
        let player = try ChildProcess(BuiltProducts.cloudplayerd, ["play", "--output", "null", file.path, file.path],
                                      environment: BuiltProducts.isolation)
        while !player.outputSoFar().contains("Playing") {
            try await Task.sleep(for: .milliseconds(20))
        }
        player.signal(number)
        let result = await player.wait()
        #expect(!result.killedBySignal)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Playing").count == 2, "stdout: \(result.stdout)")  // the second file never started
    }
}
