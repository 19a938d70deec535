import Foundation
import Testing
import TestSupport

/// Honest offline play (issue 18): with the server out of reach, a queued track that is not
/// wholly cached is skipped at once with one line saying so, wholly cached ones play, and when the
/// network is back everything plays again without a restart. `queue ls` says what is cached.
@Suite struct OfflinePlayTests {
    @Test("the network down: tracks not wholly cached are skipped at once, one line each; cached ones play; back up, all play again")
    func offline() async throws {
        let rig = try await StreamingRig([.vbrMP3, .secondMP3, .longOpus, .opus])
        let config = try rig.configFile()
        func play(_ files: [Fixtures.File], _ extra: [String] = []) async throws -> (ProcessResult, URL) {
            let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
            let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", "--config", config]
                                                                 + extra + files.map { rig.url($0).absoluteString })
            return (result, output)
        }
        // Cached whole (read ahead to its end), and in part (its head, and from 50 s of 60 on:
        // Opus seeks by bisection, without the bytes before).
        #expect(try await play([.secondMP3]).0.status == 0)
        #expect(try await play([.longOpus], ["--start", "50"]).0.status == 0)

        try rig.proxy.refuseConnections(true)
        let (offline, output) = try await play([.longOpus, .secondMP3, .vbrMP3, .opus])
        #expect(offline.status == 1)
        let lines = offline.errorLines
        #expect(lines.count == 3, "\(offline.stderr)")
        for file in [Fixtures.File.longOpus, .vbrMP3, .opus] {
            #expect(lines.contains { $0.contains(file.rawValue) && $0.contains("not available offline") }, "\(file): \(offline.stderr)")
        }
        #expect(!offline.stderr.contains(Fixtures.File.secondMP3.rawValue))
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.secondMP3))))

        // What the daemon's queue says of the same tracks.
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config], environment: bus.environment)
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd"))
        _ = try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "add"] + [Fixtures.File.longOpus, .secondMP3, .vbrMP3].map { rig.url($0).absoluteString })
        let listed = try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "ls", "--json"])
        let entries = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(entries.map { $0["cached"] as? String ?? "?" } == ["partial", "full", "none"], "\(listed.stdout)")
        // And MPRIS, in each track's metadata; the network back, a track played is cached whole
        // and its metadata says so (TrackMetadataChanged).
        func mprisCached() async throws -> [String] {
            let ids = (1...3).map { "/org/cloudplayerd/track/\($0)" }
            let answer = try await bus.run("busctl", ["--address=\(bus.address)", "call", "org.mpris.MediaPlayer2.cloudplayerd",
                                                      "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.TrackList", "GetTracksMetadata",
                                                      "ao", "3"] + ids)
            return answer.stdout.components(separatedBy: "\"cloudplayerd:cached\" s \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        #expect(try await eventually { try await mprisCached() == ["partial", "full", "none"] })
        let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address, "type='signal',member='TrackMetadataChanged'"])
        while !monitor.outputSoFar().contains("NameAcquired") { try await Task.sleep(for: .milliseconds(20)) }
        try rig.proxy.refuseConnections(false)
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "play", "3"]).status == 0)
        #expect(try await eventually { try await mprisCached() == ["partial", "full", "full"] })
        #expect(try await eventually { monitor.outputSoFar().contains("\"cloudplayerd:cached\"") })
        monitor.signal(SIGTERM)
        _ = await monitor.wait()
        // The cache cleared (nothing plays now): nothing of them is here any more, and MPRIS says so.
        #expect(try await eventually { try await bus.run(BuiltProducts.cloudplayerctl, ["status", "--json"]).stdout.contains("\"Stopped\"") })
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["cache", "clear"]).status == 0)
        #expect(try await eventually { try await mprisCached() == ["none", "none", "none"] })
        try rig.proxy.refuseConnections(true)
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()

        // The network back: no restart, no stale verdict.
        try rig.proxy.refuseConnections(false)
        let (online, again) = try await play([.vbrMP3])
        #expect(online.status == 0, "\(online.stderr)")
        #expect(try PCMAudio(wavFile: again) == (try await ReferenceDecoder.mpg123(try await Fixtures.shared.url(.vbrMP3))))
    }
}
