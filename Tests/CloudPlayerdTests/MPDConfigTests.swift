import Foundation
import Synchronization
import Testing
import TestSupport

/// `[mpd]` as the daemon takes it: a non-loopback address without a password is refused with
/// one clear error; a port a real MPD holds is said once in the journal and the daemon serves
/// on; `listen = []` turns the server off; a reload (SIGHUP) applies a changed `[mpd]`.
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

    @Test("SIGHUP applies [mpd]: a new address served and the old one closed (its client kept), a new password asked of new clients; off, and on again")
    func reloaded() async throws {
        let bus = try await DBusTestBus()
        let home = try Fixtures.shared.scratchDirectory()
        let config = home.appendingPathComponent("config.toml")
        let (first, second, third) = (try ServerProcess.freePort(), try ServerProcess.freePort(), try ServerProcess.freePort())
        try Data("[mpd]\nlisten = [\"127.0.0.1:\(first)\"]\n".utf8).write(to: config)
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
        func greets(_ port: Int) -> Bool { (try? MPDSocketClient(port: port, timeout: 5))?.greeting == "OK MPD 0.23.5" }
        #expect(try await eventually { greets(first) }, "\(daemon.errorSoFar())")
        let kept = try MPDSocketClient(port: first)

        try Data("[mpd]\nlisten = [\"127.0.0.1:\(second)\"]\npassword = \"sesame\"\n".utf8).write(to: config)
        daemon.signal(SIGHUP)
        #expect(try await eventually { greets(second) }, "the added address is served: \(daemon.errorSoFar())")
        #expect(try await eventually { (try? MPDSocketClient(port: first, timeout: 5)) == nil }, "the dropped address is closed")
        #expect(try kept.command("ping") == ["OK"], "a client connected before keeps its connection")
        let client = try MPDSocketClient(port: second)
        #expect(try client.command("status").first?.hasPrefix("ACK [4@0] {status}") == true, "a new client must give the password")
        #expect(try client.command("password sesame") == ["OK"])
        #expect(try client.command("status").last == "OK")
        // The real clients, as a user points them at the reloaded server: mpc with the password
        // in its host, python-mpd2 with it in MPD_PASSWORD; mpc without it is refused.
        let refused = try await ChildProcess.run("mpc", ["--host", "127.0.0.1", "--port", String(second), "status"])
        #expect(refused.status != 0 && refused.stderr.contains("permission"), "\(refused.stdout)\(refused.stderr)")
        let mpc = try await ChildProcess.run("mpc", ["--host", "sesame@127.0.0.1", "--port", String(second), "status"])
        #expect(mpc.status == 0 && mpc.stdout.contains("volume:"), "\(mpc.stdout)\(mpc.stderr)")
        let python = try await ChildProcess.run("python3", [MPDTools.script("mpd2_client.py"), "--host", "127.0.0.1", "--port", String(second),
                                                            "summary"], environment: ["MPD_PASSWORD": "sesame"])
        #expect(python.status == 0 && python.stdout.contains("version=0.23.5"), "\(python.stdout)\(python.stderr)")

        try Data("[mpd]\nlisten = []\n".utf8).write(to: config)
        daemon.signal(SIGHUP)
        #expect(try await eventually { (try? MPDSocketClient(port: second, timeout: 5)) == nil }, "listen = [] turns it off")
        try Data("[mpd]\nlisten = [\"127.0.0.1:\(third)\"]\n".utf8).write(to: config)
        daemon.signal(SIGHUP)
        #expect(try await eventually { greets(third) }, "and on again: \(daemon.errorSoFar())")
        #expect(try MPDSocketClient(port: third).command("status").last == "OK", "without a password again, everything is allowed")

        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        #expect(result.status == 0, "\(result.ending): \(result.stderr)")
        await bus.stop()
    }

    @Test("a reload closes a listener while clients keep connecting to it, thirty times: the daemon serves on (NIO dropped such a client unfinished, and trapped), and keeps no client's socket")
    func listenerClosedWhileConnecting() async throws {
        let bus = try await DBusTestBus()
        let home = try Fixtures.shared.scratchDirectory()
        let config = home.appendingPathComponent("config.toml")
        let port = try ServerProcess.freePort()
        let on = Data("[mpd]\nlisten = [\"127.0.0.1:\(port)\"]\n".utf8)
        try on.write(to: config)
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
        func greets() -> Bool { (try? MPDSocketClient(port: port, timeout: 5))?.greeting == "OK MPD 0.23.5" }
        try #require(try await eventually { greets() }, "\(daemon.errorSoFar())")
        let before = ServerProcess.socketInodes(of: daemon.pid).count
        for _ in 0..<30 {
            // Connections opened and closed as fast as they go, while the listener closes.
            let connecting = Going()
            let hammer = Task { try await onOwnThread { while connecting.on { Self.connectAndClose(port) } } }
            try Data("[mpd]\nlisten = []\n".utf8).write(to: config)
            daemon.signal(SIGHUP)
            try #require(try await eventually { !greets() }, "listen = [] turns it off: \(daemon.errorSoFar())")
            connecting.stop()
            try await hammer.value
            try on.write(to: config)
            daemon.signal(SIGHUP)
            try #require(try await eventually { greets() }, "and on again: \(daemon.errorSoFar())")
        }
        // Every connection of the hammer was closed by its side: the daemon holds none of them
        // (it held each client NIO dropped unserved, 112 after 30 rounds).
        #expect(try await eventually { ServerProcess.socketInodes(of: daemon.pid).count <= before }, "\(ServerProcess.socketInodes(of: daemon.pid).count) sockets, \(before) before")
        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        #expect(!result.killedBySignal && result.status == 0, "\(result.ending): \(result.stderr)")
        await bus.stop()
    }

    /// Whether the connecting goes on.
    private final class Going: Sendable {
        private let state = Mutex(true)
        var on: Bool { state.withLock { $0 } }
        func stop() { state.withLock { $0 = false } }
    }

    /// One TCP connection to `port` on 127.0.0.1, closed at once (refused is fine).
    private static func connectAndClose(_ port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
