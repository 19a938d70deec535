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
    private func misbehavingStation(_ misbehaviour: Misbehaviour) async throws -> (ICYStreamServer, DaemonRig, URL) {
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        options.fault = misbehaviour.fault
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
        let rig = try await DaemonRig.start()
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

    @Test("Stop, Next, OpenUri, SIGTERM and Ctrl-C take effect within a second while a station misbehaves",
          arguments: Misbehaviour.allCases, Action.allCases)
    func stopMeansStop(_ misbehaviour: Misbehaviour, _ action: Action) async throws {
        let (server, rig, song) = try await misbehavingStation(misbehaviour)
        defer { Task { await rig.stop() } }
        // What MPRIS says, as it says it (PropertiesChanged): a bus call per look would measure
        // process starts on a loaded machine, not the player.
        let follower = try await rig.follow("{{status}}|{{title}}")
        defer { follower.stop() }
        let seen = follower.mark()
        // Stop and Next are answered as they are queued; OpenUri once the new track is checked
        // and queued.
        let took: Duration?
        switch action {
        case .stop:
            took = try await rig.timeCall("Stop", until: "Stopped|", on: follower, since: seen, within: Self.bound * 10)
        case .next:
            took = try await rig.timeCall("Next", until: "Playing|Vbr Title", on: follower, since: seen, within: Self.bound * 10)
        case .openUri:
            took = try await rig.timeCall("OpenUri", song.absoluteString, until: "Playing|Vbr Title", on: follower, since: seen,
                                          within: Self.bound * 10)
        case .sigterm, .sigint:
            took = await rig.timeSignal(action == .sigterm ? SIGTERM : SIGINT)
        }
        let elapsed = try #require(took, "\(action) did not take effect; \(rig.daemon.errorSoFar())")
        #expect(elapsed < Self.bound, "\(action) took \(elapsed)")
        await server.stop()
    }
}
