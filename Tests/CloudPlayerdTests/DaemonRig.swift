import Foundation
import Testing
import TestSupport

/// The daemon on a private bus with a config of the test's own (null output, which plays at a
/// sound card's pace), for the tests of playing — radio, speed, chapters, skip silence: MPRIS read
/// with playerctl and busctl, Manager1 with cloudplayerctl.
struct DaemonRig {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    let bus: DBusTestBus
    let daemon: ChildProcess
    let home: URL

    /// Starts the daemon with `config` as its config file (its cache and data in a fresh folder).
    static func start(config: String = "") async throws -> DaemonRig {
        let bus = try await DBusTestBus()
        let home = try Fixtures.shared.scratchDirectory()
        try config.write(to: home.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return try await launch(on: bus, home: home)
    }

    private static func launch(on bus: DBusTestBus, home: URL) async throws -> DaemonRig {
        let file = home.appendingPathComponent("config.toml")
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", file.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
        #expect(try await bus.waitForName(Self.name), "\(daemon.errorSoFar())")
        return DaemonRig(bus: bus, daemon: daemon, home: home)
    }

    /// Stops the daemon (SIGTERM: it saves its state) and starts another with the same config,
    /// data and bus.
    func restarted() async throws -> DaemonRig {
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending): \(ended.stderr)")
        #expect(try await bus.waitForName(Self.name, present: false))
        return try await Self.launch(on: bus, home: home)
    }

    func ctl(_ arguments: String...) async throws -> ProcessResult {
        try await bus.run(BuiltProducts.cloudplayerctl, arguments)
    }

    func status() async throws -> [String: Any] {
        let result = try await bus.run(BuiltProducts.cloudplayerctl, ["status", "--json"])
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// An MPRIS metadata field as playerctl prints it ("" when absent).
    func metadata(_ key: String) async throws -> String {
        try await bus.run("playerctl", ["-p", "cloudplayerd", "metadata", key]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An MPRIS property of the player, as `busctl get-property` prints it.
    func property(_ name: String) async throws -> String {
        try await bus.run("busctl", ["--address=\(bus.address)", "get-property", Self.name, Self.path, Self.player, name])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Calls an MPRIS player method (`Stop`, `Next`; `OpenUri` with its URL).
    func call(_ method: String, _ arguments: String...) async throws -> ProcessResult {
        try await call(method, arguments: arguments)
    }

    private func call(_ method: String, arguments: [String]) async throws -> ProcessResult {
        try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, Self.path, Self.player, method]
                          + (arguments.isEmpty ? [] : ["s"] + arguments))
    }

    /// Opens `url` (MPRIS `OpenUri`) and waits until it plays.
    func open(_ url: URL) async throws {
        let opened = try await call("OpenUri", url.absoluteString)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try await eventually(within: 30) { try await property("PlaybackStatus") == "s \"Playing\"" }, "\(daemon.errorSoFar())")
    }

    /// Waits (30 s at most) until MPRIS's title is `title`.
    func waitForTitle(_ title: String) async throws -> Bool {
        try await eventually(within: 30) { try await metadata("title") == title }
    }

    /// `playerctl --follow` of the player: what MPRIS says, as it says it (PropertiesChanged), a
    /// line in `format` per change; subscribed once it printed the state it found (it prints
    /// nothing while no track is current: start it once one is).
    func follow(_ format: String) async throws -> MPRISFollower {
        let process = try ChildProcess("playerctl", ["-p", "cloudplayerd", "--follow", "metadata", "--format", format],
                                       environment: bus.environment)
        #expect(try await eventually(within: 30) { process.outputSoFar().contains("\n") }, "playerctl --follow printed nothing")
        return MPRISFollower(process: process)
    }

    /// How long a player method (`Stop`, `Next`, `OpenUri` with its URL) takes to take effect:
    /// from the daemon's answer (when `busctl` was seen to end: a `busctl` starting on a loaded
    /// machine is not the player's time) until `follower` prints a line beginning with `effect`
    /// after `mark`, as its watcher thread saw it come. Both instants are taken off the
    /// cooperative pool, which other suites keep busy. Nil when it did not within `limit`, which fails.
    func timeCall(_ method: String, _ arguments: String..., until effect: String, on follower: MPRISFollower, since mark: Int,
                  within limit: Duration) async throws -> Duration? {
        async let seen = follower.whenSaid(effect, since: mark, within: limit)
        let answered = try await call(method, arguments: arguments).endedAt
        return await seen.map { max(.zero, $0 - answered) }
    }

    /// How long the daemon takes to end after `number` (SIGTERM, SIGINT), which it must do cleanly.
    func timeSignal(_ number: Int32) async -> Duration {
        let start = ContinuousClock.now
        daemon.signal(number)
        let result = await daemon.wait()
        #expect(!result.killedBySignal && result.status == 0, "stderr: \(result.stderr)")
        return result.endedAt - start
    }

    func stop() async {
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }
}

/// What one `playerctl --follow` has printed, read in this process as it comes.
struct MPRISFollower {
    let process: ChildProcess

    /// Where the output is now: `said(_:since:)` looks only at what comes after it.
    func mark() -> Int { process.outputSoFar().count }

    /// The lines printed since `mark`.
    func lines(since mark: Int = 0) -> [Substring] {
        process.outputSoFar().dropFirst(mark).split(separator: "\n")
    }

    /// Whether a line printed since `mark` begins with `prefix`.
    func said(_ prefix: String, since mark: Int = 0) -> Bool {
        lines(since: mark).contains { $0.hasPrefix(prefix) }
    }

    /// When a line beginning with `prefix` came after `mark`, watched for on a thread of its own
    /// (playerctl writes to a file; a look from the cooperative pool, which other suites keep
    /// busy, could come seconds late and the time measured would be theirs); nil when none came
    /// within `limit`, an upper bound that fails.
    func whenSaid(_ prefix: String, since mark: Int, within limit: Duration) async -> ContinuousClock.Instant? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let end = ContinuousClock.now + limit
                while ContinuousClock.now < end {
                    if said(prefix, since: mark) { return continuation.resume(returning: .now) }
                    usleep(2000)
                }
                continuation.resume(returning: nil)
            }
        }
    }

    func stop() { process.signal(SIGTERM) }
}
