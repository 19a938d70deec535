import Foundation
import Testing
import TestSupport

/// Stop means stop, whatever a station does: one that stalls mid-stream, one that sends a byte a
/// second, one that never answers. Stop, Next and a new OpenUri take effect within a second (as
/// MPRIS shows them), and so do SIGTERM and Ctrl-C (the process is gone).
@Suite(.timeLimit(.minutes(4))) struct RadioStopTests {
    private static let bound = Duration.seconds(1)

    enum Misbehaviour: String, CaseIterable, CustomStringConvertible {
        case stalls, trickles, neverAnswers
        var description: String { rawValue }

        var fault: ICYStreamServer.Options.Fault {
            switch self {
            case .stalls: .stall(afterBytes: 48_000)
            case .trickles: .trickle(afterBytes: 48_000, secondsPerByte: 1)
            case .neverAnswers: .neverAnswer
            }
        }
    }

    enum Action: String, CaseIterable, CustomStringConvertible {
        case stop, next, openUri, sigterm, sigint
        var description: String { rawValue }
    }

    /// A station misbehaving as told, played by the daemon, with a local file queued after it;
    /// returns once the misbehaviour has begun (the request came; the bytes before a stall were sent).
    private func misbehavingStation(_ misbehaviour: Misbehaviour) async throws -> (ICYStreamServer, RadioRig, URL) {
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        options.fault = misbehaviour.fault
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
        let rig = try await RadioRig.start()
        let song = try await Fixtures.shared.url(.vbrMP3)
        #expect(try await rig.ctl("queue", "add", server.url.absoluteString, song.path).status == 0)
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        _ = try await server.waitForRequests(1)
        if misbehaviour != .neverAnswers {
            // The 3 s before the stall are played out, and the player waits for more.
            #expect(try await eventually(within: 30) { try await rig.property("PlaybackStatus") == "s \"Paused\"" },
                    "a starved station shows as paused; \(rig.daemon.errorSoFar())")
        }
        return (server, rig, song)
    }

    /// How long from `start` until `check` holds — the follower's line, the event MPRIS said it
    /// with, looked for in this process every 10 ms (no process started per look) — or nil if it
    /// did not within ten times the bound, which fails.
    private func time(from start: ContinuousClock.Instant, until check: () -> Bool) async throws -> Duration? {
        while ContinuousClock.now - start < Self.bound * 10 {
            if check() { return ContinuousClock.now - start }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    @Test("Stop, Next, OpenUri, SIGTERM and Ctrl-C take effect within a second while a station misbehaves",
          arguments: Misbehaviour.allCases, Action.allCases)
    func stopMeansStop(_ misbehaviour: Misbehaviour, _ action: Action) async throws {
        let (server, rig, song) = try await misbehavingStation(misbehaviour)
        defer { Task { await rig.stop() } }
        // What MPRIS says, as it says it (PropertiesChanged): a bus call per look would measure
        // process starts on a loaded machine, not the player.
        let follower = try ChildProcess("playerctl", ["-p", "cloudplayerd", "--follow", "metadata", "--format", "{{status}}|{{title}}"],
                                        environment: rig.bus.environment)
        defer { follower.signal(SIGTERM) }
        #expect(try await eventually(within: 30) { follower.outputSoFar().contains("\n") })
        let seen = follower.outputSoFar().count
        func said(_ prefix: String) -> Bool {
            follower.outputSoFar().dropFirst(seen).split(separator: "\n").contains { $0.hasPrefix(prefix) }
        }
        // From the daemon's answer to the call on: `busctl` starting on a loaded machine is not
        // the player's time. (Stop and Next are answered as they are queued; OpenUri once the
        // new track is checked and queued.)
        var start = ContinuousClock.now
        let took: Duration?
        switch action {
        case .stop:
            _ = try await rig.call("Stop")
            start = .now
            took = try await time(from: start) { said("Stopped|") }
        case .next:
            _ = try await rig.call("Next")
            start = .now
            took = try await time(from: start) { said("Playing|Vbr Title") }
        case .openUri:
            _ = try await rig.call("OpenUri", song.absoluteString)
            start = .now
            took = try await time(from: start) { said("Playing|Vbr Title") }
        case .sigterm, .sigint:
            rig.daemon.signal(action == .sigterm ? SIGTERM : SIGINT)
            let result = await rig.daemon.wait()
            took = result.endedAt - start
            #expect(!result.killedBySignal && result.status == 0, "stderr: \(result.stderr)")
        }
        let elapsed = try #require(took, "\(action) did not take effect; \(rig.daemon.errorSoFar())")
        #expect(elapsed < Self.bound, "\(action) took \(elapsed)")
        await server.stop()
    }
}
