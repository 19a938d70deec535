import Foundation
import Testing
import TestSupport

/// `[mpd]` as the daemon takes it: a non-loopback address without a password is refused with
/// one clear error; a port a real MPD holds is said once in the journal and the daemon serves
/// on; `listen = []` turns the server off.
@Suite(.timeLimit(.minutes(3)))
struct MPDConfigTests {
    func config(_ text: String) throws -> URL {
        let home = try Fixtures.shared.scratchDirectory()
        let config = home.appendingPathComponent("config.toml")
        try Data(text.utf8).write(to: config)
        return config
    }

    @Test("a non-loopback address without a password is refused: one error naming the key, exit status not 0")
    func nonLoopbackNeedsPassword() async throws {
        let bus = try await DBusTestBus()
        let config = try config("[mpd]\nlisten = [\"0.0.0.0:\(try ServerProcess.freePort())\"]\n")
        let result = try await ChildProcess.run(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                                environment: bus.environment)
        #expect(result.status != 0)
        #expect(result.stderr.contains("mpd.listen") && result.stderr.contains("password"), "\(result.stderr)")
        await bus.stop()
    }

    @Test("a port a real MPD holds: said once, and the daemon serves MPRIS and its MPD unix socket")
    func portTaken() async throws {
        let home = try Fixtures.shared.scratchDirectory()
        let music = home.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let realMPD = try await MPDTestServer(music: music)
        let port = realMPD.port
        let bus = try await DBusTestBus()
        let socket = home.appendingPathComponent("run/mpd.socket").path
        let config = try config("[mpd]\nlisten = [\"127.0.0.1:\(port)\", \"\(socket)\"]\n")
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--log-level", "info", "--config", config.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd"))
        #expect(try await eventually(within: 30) { (try? MPDSocketClient(path: socket, timeout: 5))?.greeting == "OK MPD 0.23.5" })
        #expect(try MPDSocketClient(port: port).greeting.hasPrefix("OK MPD 0.23."), "the real MPD still has its port")
        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        let said = (result.stderr + result.stdout).components(separatedBy: "cannot listen on 127.0.0.1:\(port)").count - 1
        #expect(said == 1, "said \(said) times: \(result.stderr)")
        #expect(result.status == 0)
        await realMPD.stop()
        await bus.stop()
    }

    @Test("listen = [] turns the server off; SIGTERM ends the daemon within a second even with clients idle and unread")
    func offAndQuickStop() async throws {
        let bus = try await DBusTestBus()
        let port = try ServerProcess.freePort()
        let config = try config("[mpd]\nlisten = []\n")
        let off = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path], environment: bus.environment)
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd"))
        #expect((try? MPDSocketClient(port: port, timeout: 2)) == nil)
        off.signal(SIGTERM)
        _ = await off.wait()
        await bus.stop()

        let rig = try await MPDDaemonRig.start()
        let idle = try rig.client()
        idle.send("idle")
        let hog = try rig.client()
        _ = try rig.client().command("add \"\(try await Fixtures.shared.url(.longMP3).absoluteString)\"")
        while hog.sendWithoutWaiting("playlistinfo") {}
        rig.daemon.signal(SIGTERM)
        let result = await rig.daemon.wait()
        // The daemon's own stop deadline (`StopDeadline`, 1 s from the signal's arrival) judges:
        // missed, it says "did not stop in time" and exits 1 — not a test's clock, which under
        // load also counts the time the signal took to be delivered.
        #expect(!result.killedBySignal && result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("did not stop in time"), "stderr: \(result.stderr)")
        await rig.bus.stop()
    }
}
