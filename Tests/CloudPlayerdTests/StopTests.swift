import Foundation
import Testing
import TestSupport

/// SIGTERM and Ctrl-C take effect within a second, whatever the network does: a server that
/// accepts and never answers, or one that stalls in the middle of a file (issue 24).
@Suite(.timeLimit(.minutes(2))) struct StopTests {
    /// The promise: the process is gone this soon after the signal.
    private static let bound = Duration.seconds(1)

    /// Sends `number` and returns how long the process took to end (from the signal to when the
    /// waiter thread saw it end), and how it ended. A process that outlives ten times the bound is
    /// killed, so a failure fails instead of hanging.
    private func stop(_ process: ChildProcess, with number: Int32 = SIGTERM) async -> (Duration, ProcessResult) {
        let sent = ContinuousClock.now
        process.signal(number)
        let killer = Task {
            try await Task.sleep(for: Self.bound * 10)
            process.signal(SIGKILL)
        }
        let result = await process.wait()
        killer.cancel()
        return (result.endedAt - sent, result)
    }

    @Test("play stops at once while the server has not answered its request", arguments: [SIGTERM, SIGINT])
    func serverNeverAnswers(_ number: Int32) async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let player = try ChildProcess(BuiltProducts.cloudplayerd,
                                      ["play", "--no-mpris", "--output", "null", server.baseURL.appendingPathComponent("song.mp3").absoluteString],
                                      environment: BuiltProducts.isolation.merging(["XDG_CACHE_HOME": try Fixtures.shared.scratchDirectory().path]) { $1 })
        var requests = server.requests.makeAsyncIterator()
        let request = await requests.next()
        #expect(request?.hasPrefix("GET /song.mp3") == true || request?.hasPrefix("HEAD /song.mp3") == true, "\(request ?? "no request")")
        let (took, result) = await stop(player, with: number)
        #expect(took < Self.bound, "took \(took) to stop; stderr: \(result.stderr)")
        #expect(!result.killedBySignal, "stderr: \(result.stderr)")
        #expect(result.status == 0, "stderr: \(result.stderr)")
    }

    @Test("play stops at once while it waits for bytes of a download that stalled")
    func downloadStalls() async throws {
        let rig = try await StreamingRig([.longMP3])
        // The head and a few seconds of audio, then nothing for ten minutes — from every download
        // the player starts meanwhile, too.
        rig.proxy.inject(.stall(afterBytes: 96 * 1024, seconds: 600))
        for _ in 0..<32 { rig.proxy.inject(.stall(afterBytes: 0, seconds: 600)) }
        let player = try ChildProcess(BuiltProducts.cloudplayerd,
                                      ["play", "--no-mpris", "--output", "null", "--config", try rig.configFile(), rig.url(.longMP3).absoluteString],
                                      environment: BuiltProducts.isolation)
        #expect(try await eventually { player.outputSoFar().contains("Buffering") }, "\(player.outputSoFar()) \(player.errorSoFar())")
        let (took, result) = await stop(player)
        #expect(took < Self.bound, "took \(took) to stop; stderr: \(result.stderr)")
        #expect(!result.killedBySignal && result.status == 0, "stderr: \(result.stderr)")
        rig.proxy.stop()
    }

    @Test("the daemon stops at once while an OpenUri waits for a server that never answers")
    func daemonWithSilentServer() async throws {
        let bus = try await DBusTestBus()
        let server = try SilentServer()
        defer { server.stop() }
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": try Fixtures.shared.scratchDirectory().path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        let url = server.baseURL.appendingPathComponent("song.mp3").absoluteString
        let call = try ChildProcess("busctl", ["--address=\(bus.address)", "call", Self.name, Self.path, Self.player, "OpenUri", "s", url])
        var requests = server.requests.makeAsyncIterator()
        _ = await requests.next()
        let (took, result) = await stop(daemon)
        #expect(took < Self.bound, "took \(took) to stop; stderr: \(result.stderr)")
        #expect(!result.killedBySignal && result.status == 0, "stderr: \(result.stderr)")
        _ = await call.wait()
        await bus.stop()
    }

    @Test("the daemon stops at once, its queue and place saved, while the track's download stalls")
    func daemonWithStalledDownload() async throws {
        let bus = try await DBusTestBus()
        let rig = try await StreamingRig([.longMP3])
        rig.proxy.inject(.stall(afterBytes: 96 * 1024, seconds: 600))
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", try rig.configFile()],
                                      environment: bus.environment)
        #expect(try await bus.waitForName(Self.name))
        let opened = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, Self.path, Self.player,
                                                  "OpenUri", "s", rig.url(.longMP3).absoluteString])
        #expect(opened.status == 0, "\(opened.stderr)")
        // The stall is reached: the proxy has sent what it sends before it.
        #expect(try await eventually { rig.proxy.bodyBytesSent >= 96 * 1024 }, "\(daemon.errorSoFar())")
        let (took, result) = await stop(daemon)
        #expect(took < Self.bound, "took \(took) to stop; stderr: \(result.stderr)")
        #expect(!result.killedBySignal && result.status == 0, "stderr: \(result.stderr)")
        let folder = bus.dataHome.appendingPathComponent("cloudplayerd")
        let queue = try String(contentsOf: folder.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(queue.contains(Fixtures.File.longMP3.rawValue), "the queue is saved: \(queue)")
        let place = try String(contentsOf: folder.appendingPathComponent("place.json"), encoding: .utf8)
        #expect(place.contains(Fixtures.File.longMP3.rawValue), "the place is saved: \(place)")
        rig.proxy.stop()
        await bus.stop()
    }

    @Test("play sends the server its last report of a play before it exits (a Subsonic scrobble)")
    func lastReportIsSent() async throws {
        let server = try await SubsonicTestServer()
        _ = try server.publish(try await Fixtures.shared.url(.monoOpus), as: "Artist/Album/01 song.opus")
        try await server.scan()
        let answer = try await server.call("getRandomSongs", [("size", "1")])
        let json = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        let songs = ((json?["subsonic-response"] as? [String: Any])?["randomSongs"] as? [String: Any])?["song"] as? [[String: Any]]
        let id = try #require(songs?.first?["id"].map { "\($0)" })
        // Every answer a little late, so the last report is still under way when the queue ends.
        let proxy = try FaultProxy(originPort: server.port)
        proxy.setLatency(seconds: 0.2)
        let folder = try Fixtures.shared.scratchDirectory()
        let config = folder.appendingPathComponent("config.toml")
        try """
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"
            [[source]]
            name = "sub"
            type = "subsonic"
            url = "\(proxy.baseURL.absoluteString)"
            username = "\(server.username)"
            password = "\(server.password)"
            """.write(to: config, atomically: true, encoding: .utf8)
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--output", "null", "--unpaced", "--config", config.path,
                                                              "cloudplayer://sub/song/\(id)"], environment: BuiltProducts.isolation)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let scrobbles = await proxy.settledLog().filter { $0.path.contains("/rest/scrobble") }
        #expect(scrobbles.contains { $0.path.contains("submission=true") && $0.status == 200 }, "\(scrobbles.map(\.path)) \(result.stderr)")
        proxy.stop()
        await server.stop()
    }

    private static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    private static let path = "/org/mpris/MediaPlayer2"
    private static let player = "org.mpris.MediaPlayer2.Player"
}
