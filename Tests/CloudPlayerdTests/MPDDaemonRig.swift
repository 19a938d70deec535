import Foundation
import TestSupport

/// `cloudplayerd daemon` (null output, private session bus) with its MPD server on a free port
/// of 127.0.0.1 and a unix socket in its scratch folder; up once the port greets as
/// cloudplayerd's MPD (a stranger that took the port first would greet otherwise, or not at all).
struct MPDDaemonRig {
    let bus: DBusTestBus
    let daemon: ChildProcess
    let port: Int
    let home: URL
    let socket: String
    let password: String?

    /// Starts a daemon; `password` sets `[mpd] password`, `extra` is added to `[mpd]`; `home`:
    /// the data and cache folders of a daemon before (its state, its library).
    static func start(password: String? = nil, extra: String = "", home reused: URL? = nil) async throws -> MPDDaemonRig {
        var lastProblem = ""
        for _ in 0..<5 {
            let bus = try await DBusTestBus()
            let home = try reused ?? Fixtures.shared.scratchDirectory()
            let port = try ServerProcess.freePort()
            let socket = home.appendingPathComponent("run/mpd.socket").path
            let config = home.appendingPathComponent("config.toml")
            try Data("""
                [mpd]
                listen = ["127.0.0.1:\(port)", "\(socket)"]
                \(password.map { "password = \"\($0)\"" } ?? "")
                \(extra)
                """.utf8).write(to: config)
            let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--log-level", "debug", "--config", config.path],
                                          environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
            let rig = MPDDaemonRig(bus: bus, daemon: daemon, port: port, home: home, socket: socket, password: password)
            if try await rig.greets() { return rig }
            lastProblem = daemon.errorSoFar()
            await rig.stop()
        }
        throw TestSupportError("the daemon's MPD server never greeted: \(lastProblem)")
    }

    /// Waits until the port greets as our server (true), or the daemon ended (false).
    func greets() async throws -> Bool {
        try await eventually(within: 60) {
            if daemon.hasEnded { return true }
            return (try? MPDSocketClient(port: port, timeout: 5))?.greeting == "OK MPD 0.23.5"
        } && !daemon.hasEnded
    }

    func client(timeout: Int = 30) throws -> MPDSocketClient {
        try MPDSocketClient(port: port, timeout: timeout)
    }

    /// `mpc` against the daemon (with the password if one is set).
    func mpc(_ arguments: String...) async throws -> ProcessResult {
        let host = password.map { "\($0)@127.0.0.1" } ?? "127.0.0.1"
        return try await ChildProcess.run("mpc", ["--host", host, "--port", String(port)] + arguments)
    }

    /// A python-mpd2 script of Tests/MPDTools with the port (and more arguments).
    func python(_ script: String, _ arguments: [String] = []) async throws -> ProcessResult {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MPDTools/\(script)").path
        return try await ChildProcess.run("python3", [path, String(port)] + arguments)
    }

    /// Polls `status` until `key` has `value`.
    func waitForStatus(_ key: String, _ value: String) async throws -> Bool {
        try await eventually(within: 30) {
            let lines = try client().command("status")
            return MPDSocketClient.value(key, in: lines) == value
        }
    }

    func stop() async {
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }
}
