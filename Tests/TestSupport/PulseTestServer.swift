import Foundation

/// A private, headless sound server speaking the PulseAudio protocol on a unix socket in a
/// temporary folder, stopped when the test process ends (`ServerProcess`es): PulseAudio itself, or
/// PipeWire with its session manager and its PulseAudio server — what most desktops run today.
/// `shared` and `pipewire` serve the whole test run, and each test takes its own null sink, so
/// tests running side by side never hear each other; a test that stops and starts a server (a
/// sound server restarting under a player) makes its own.
public actor PulseTestServer {
    /// Which sound server answers on the socket.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case pulseaudio
        case pipewire

        public var description: String { rawValue }

        /// The most audio one dropout of this server may replace with silence, in frames, and
        /// the longest silence it may put between two frames of a stream without losing any. Our
        /// PulseAudio's null sink has never done either; PipeWire's graph, starved of CPU (no
        /// realtime priority in a test, two cores, compilers beside it), misses a cycle now and
        /// then — for the sink, whose cycle it fills with silence (a loss: 128 and 512 frames
        /// seen), or for one stream, which then goes on a cycle later from where it was (a wait:
        /// 512 frames seen with `pacat` alone, its 2 s buffer full). Each is bounded by a quantum
        /// (1024 here), and the bound allows two.
        public var dropoutBound: Int {
            switch self {
            case .pulseaudio: 0
            case .pipewire: 2048
            }
        }
    }

    public static let shared = PulseTestServer(.pulseaudio, defaultSinkOfItsOwn: true)
    public static let pipewire = PulseTestServer(.pipewire, defaultSinkOfItsOwn: true)

    /// The run-wide server of `kind`.
    public static func shared(_ kind: Kind) -> PulseTestServer {
        switch kind {
        case .pulseaudio: shared
        case .pipewire: pipewire
        }
    }

    public let kind: Kind
    /// A sink no test plays on, the default: see `fixDefaults`.
    private let defaultSinkOfItsOwn: Bool
    /// One start for everyone who asks at once; nil while stopped.
    private var startup: Task<String, any Error>?
    /// The server's processes, in the order they started.
    private var processes: [ServerProcess] = []
    /// PipeWire's session bus (WirePlumber will not run without one); it outlives a restart of
    /// the sound server, as a desktop session's bus does.
    private var sessionBus: DBusTestBus?
    /// The folder of the socket and the logs: the same across restarts, so the address is too.
    private var directory: URL?
    private var sinkCount = 0

    /// `defaultSinkOfItsOwn` for a server whose tests all name their sinks.
    public init(_ kind: Kind = .pulseaudio, defaultSinkOfItsOwn: Bool = false) {
        self.kind = kind
        self.defaultSinkOfItsOwn = defaultSinkOfItsOwn
    }

    /// The server address for libpulse (`unix:/…/native`), starting the server if it is not running.
    public func serverAddress() async throws -> String {
        if startup == nil { startup = Task { try await start() } }
        return try await startup!.value
    }

    /// Stops the server, as a package upgrade or `systemctl --user restart` does (TERM), and
    /// waits until it is gone; its sinks and streams go with it. `serverAddress()` starts it again.
    public func stop() async {
        startup = nil
        for process in processes.reversed() { await process.stop() }
        processes = []
    }

    /// Freezes the server's processes (SIGSTOP), as a laptop's sleep or a stalled machine does
    /// to them, or thaws them (SIGCONT). Returns how many processes it reached.
    @discardableResult
    public func freeze(_ frozen: Bool) -> Int {
        processes.reduce(0) { $0 + $1.signalServer(frozen ? SIGSTOP : SIGCONT) }
    }

    private func start() async throws -> String {
        let directory = try self.directory ?? Fixtures.shared.scratchDirectory()
        self.directory = directory
        chmod(directory.path, 0o700)
        let candidate: String
        switch kind {
        case .pulseaudio:
            let socket = directory.appendingPathComponent("native").path
            candidate = "unix:\(socket)"
            processes = [try ServerProcess("pulse-server", command: #"pulseaudio "$@""#,
                                           arguments: ["-n", "--daemonize=no", "--exit-idle-time=-1",
                                                       "--log-target=file:\(directory.path)/server.log",
                                                       "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socket)"],
                                           environment: ["XDG_RUNTIME_DIR": directory.path, "HOME": directory.path])]
        case .pipewire:
            candidate = "unix:\(directory.path)/pulse/native"
            try await startPipeWire(in: directory)
        }
        for _ in 0..<1200 {
            if let info = try? await ChildProcess.run("pactl", ["-s", candidate, "info"]), info.status == 0 {
                try await fixDefaults(candidate, in: directory)
                return candidate
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let logs = ["server.log", "pipewire.log", "wireplumber.log", "pipewire-pulse.log"].compactMap {
            try? String(contentsOfFile: directory.appendingPathComponent($0).path, encoding: .utf8)
        }
        throw TestSupportError("the test \(kind) server did not come up: \(processes.map { $0.errorSoFar() }.joined())\(logs.joined())")
    }

    /// A default source of its own that no test records: with none set, the default source is
    /// the default sink's monitor, and both servers move the recorders that were on it (each
    /// sink's `parec`, named device or not) to the new one's when a test changes the default
    /// sink — the old sink's recording then went on with the new sink's sound.
    ///
    /// And, on a server shared by tests, a default sink that none of them plays on: otherwise the
    /// default is one test's sink, and changes whenever that test ends and unloads it. PipeWire's
    /// session manager makes a stream follow the default once the sink it plays on is the
    /// default, so a test's player whose sink had been the default was moved to another test's.
    /// (The player now moves back to a named sink that is still there; a sink no test unloads
    /// keeps the other tests' sound out of the question.)
    private func fixDefaults(_ server: String, in directory: URL) async throws {
        let fifo = directory.appendingPathComponent("unrecorded.fifo").path
        try? FileManager.default.removeItem(atPath: fifo)
        try await ChildProcess.check("pactl", ["-s", server, "load-module", "module-pipe-source", "source_name=unrecorded", "file=\(fifo)"])
        try await waitUntilListed("sources", "unrecorded", on: server)
        try await setDefault("source", "unrecorded", on: server)
        guard defaultSinkOfItsOwn else { return }
        try await ChildProcess.check("pactl", ["-s", server, "load-module", "module-null-sink", "sink_name=unheard", "rate=44100",
                                               "channels=2", "format=s16le", "norewinds=1"])
        try await waitUntilListed("sinks", "unheard", on: server)
        try await setDefault("sink", "unheard", on: server)
    }

    /// `pactl set-default-KIND NAME`, once the server can: pipewire-pulse answers "Not supported"
    /// until the session manager has made its `default` metadata (a loaded machine: seen in the
    /// suite's run beside stress-ng), and takes it from then on.
    private func setDefault(_ kind: String, _ name: String, on server: String) async throws {
        var refusal = ""
        let done = try await eventually(within: 120) {
            let result = try await ChildProcess.run("pactl", ["-s", server, "set-default-\(kind)", name])
            refusal = result.stderr
            return result.status == 0
        }
        if !done { throw TestSupportError("the test server never took \(name) as its default \(kind): \(refusal)") }
    }

    /// Waits until the server lists a device just loaded: pipewire-pulse answers `load-module`
    /// before the device's node is registered, and refuses to make it the default until then
    /// ("Not supported").
    private func waitUntilListed(_ kind: String, _ name: String, on server: String) async throws {
        let listed = try await eventually(within: 120) {
            let list = try await ChildProcess.check("pactl", ["-s", server, "list", "short", kind]).stdout
            return list.split(separator: "\n").contains { $0.split(separator: "\t").dropFirst().first == Substring(name) }
        }
        if !listed { throw TestSupportError("the test server never listed the \(kind) \(name) it loaded") }
    }

    /// PipeWire, WirePlumber and pipewire-pulse, as `systemctl --user start` brings them up, with
    /// 44.1 kHz allowed in the graph: otherwise PipeWire resamples everything to 48 kHz and no
    /// recording equals a reference decode. A quantum of 1024 frames (23 ms), not the keeper's 20 ms.
    private func startPipeWire(in directory: URL) async throws {
        let configuration = directory.appendingPathComponent("config")
        let dropIns = configuration.appendingPathComponent("pipewire/pipewire.conf.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        try Data("context.properties = { default.clock.allowed-rates = [ 44100 48000 ] default.clock.quantum = 1024 default.clock.min-quantum = 1024 }\n".utf8)
            .write(to: dropIns.appendingPathComponent("rates.conf"))
        let bus: DBusTestBus
        if let sessionBus { bus = sessionBus } else { bus = try await DBusTestBus(); sessionBus = bus }
        let environment = ["XDG_RUNTIME_DIR": directory.path, "HOME": directory.path,
                           "XDG_CONFIG_HOME": configuration.path, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        let core = try ServerProcess("pipewire", command: #"pipewire 2>"$1""#,
                                     arguments: [directory.appendingPathComponent("pipewire.log").path], environment: environment)
        processes = [core]
        // The clients below connect to the core's socket: wait for it.
        for _ in 0..<2400 where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("pipewire-0").path) {
            try await Task.sleep(for: .milliseconds(50))
        }
        for name in ["wireplumber", "pipewire-pulse"] {
            processes.append(try ServerProcess(name, command: #"$1 2>"$2""#,
                                               arguments: [name, directory.appendingPathComponent("\(name).log").path],
                                               environment: environment))
        }
    }

    /// A new null sink of its own, clocked and recorded from the start: `name` one of the test's
    /// choosing (to take a sink away and bring it back); `format` `s32le` for a sink that keeps
    /// 24-bit audio whole; `channelMap` (PulseAudio's names, comma-separated) for the sink and its
    /// recording, else PulseAudio's default for the channel count.
    public func makeSink(named chosen: String? = nil, sampleRate: Int = 44100, channels: Int = 2, format: String = "s16le",
                         channelMap: String? = nil) async throws -> TestSink {
        let server = try await serverAddress()
        sinkCount += 1
        let name = chosen ?? "test\(sinkCount)"
        let loaded = try await ChildProcess.check("pactl", ["-s", server, "load-module", "module-null-sink", "sink_name=\(name)",
                                                            "rate=\(sampleRate)", "channels=\(channels)", "format=\(format)", "norewinds=1"]
                                                            + (channelMap.map { ["channel_map=\($0)"] } ?? []))
        let module = loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await TestSink(server: server, name: name, module: module, sampleRate: sampleRate, channels: channels,
                                  format: format, channelMap: channelMap)
    }
}

/// One null sink: a silent stream keeps its clock running (an idle null sink stalls a new
/// stream), and `parec` records its monitor into a file.
///
/// What the sink plays reaches the file later — through the monitor, the server's buffer for
/// the recording and parec — and on a loaded machine much later. So the recording is judged by
/// what the file holds (`waitForAudio`), and `finish` stops parec only once the file holds the
/// sink's silence after the audio.
public final class TestSink: Sendable {
    public let server: String
    public let name: String
    public let sampleRate: Int
    public let channels: Int
    private let module: String
    private let capture: URL
    private let frameBytes: Int
    private let keeper: ChildProcess
    private let recorder: ChildProcess

    init(server: String, name: String, module: String, sampleRate: Int, channels: Int, format: String,
         channelMap: String?) async throws {
        self.server = server
        self.name = name
        self.module = module
        self.sampleRate = sampleRate
        self.channels = channels
        frameBytes = channels * (format == "s32le" ? 4 : 2)
        capture = try Fixtures.shared.scratchDirectory().appendingPathComponent("capture.raw")
        let format = ["--raw", "--format=\(format)", "--rate=\(sampleRate)", "--channels=\(channels)"]
            + (channelMap.map { ["--channel-map=\($0)"] } ?? [])
        // Both stay on this sink when the default one changes: PipeWire's session manager moves
        // streams to a new default unless they say `node.dont-reconnect` (the server's fixed
        // default source is PulseAudio's answer; PulseAudio ignores the property).
        let stay = "--property=node.dont-reconnect=true"
        keeper = try ChildProcess("pacat", ["-s", server, "-p", "-d", name, "--latency-msec=20", stay] + format,
                                  input: .file(URL(fileURLWithPath: "/dev/zero")))
        // A short fragment: parec otherwise holds up to 2 s on PipeWire, lost when it is stopped.
        recorder = try ChildProcess("parec", ["-s", server, "-d", "\(name).monitor", "--latency-msec=50", stay] + format + [capture.path])
        // Recording has begun once the keeper's silence reaches the file.
        var recorded = SinkCapture(file: capture, frameBytes: frameBytes)
        for _ in 0..<Self.patience where recorded.frames == 0 {
            try await Task.sleep(for: .milliseconds(50))
            recorded.readOn()
        }
        if recorded.frames == 0 { throw TestSupportError("parec recorded nothing from \(name).monitor") }
    }

    /// Polls of 50 ms in two minutes: a bound only a recorder that is stuck reaches.
    private static let patience = 2400

    /// Waits until the recording holds `seconds` of audible frames (of whatever played here):
    /// the sign that a stream plays on this sink, whenever its sound reaches the file.
    public func waitForAudio(seconds: Double) async throws {
        var recorded = SinkCapture(file: capture, frameBytes: frameBytes)
        let wanted = Int(seconds * Double(sampleRate))
        for _ in 0..<Self.patience {
            recorded.readOn()
            if recorded.audibleFrames >= wanted { return }
            if recorder.hasEnded { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("\(name) recorded \(recorded.audibleFrames) audible frames, not \(wanted)")
    }

    /// Seconds of audible frames the recording holds so far.
    public func audibleSeconds() -> Double {
        var recorded = SinkCapture(file: capture, frameBytes: frameBytes)
        recorded.readOn()
        return Double(recorded.audibleFrames) / Double(sampleRate)
    }

    /// Once whatever played here has ended: stops recording when the recording holds it all, and
    /// returns everything the sink played (an `s16le` sink).
    public func finish() async throws -> PCMAudio {
        try await stop(settled: true)
        return try PCMAudio(rawFile: capture, sampleRate: sampleRate, channels: channels)
    }

    /// `finish` for an `s32le` sink: every sample the sink played.
    public func finishWide() async throws -> [Int32] {
        try await stop(settled: true)
        let bytes = try Data(contentsOf: capture)
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }  // little-endian here
    }

    /// The sink taken away while a stream plays on it (a DAC unplugged): stops recording at
    /// once and returns what reached the file; the stream moves elsewhere.
    public func unplug() async throws -> PCMAudio {
        try await stop(settled: false)
        return try PCMAudio(rawFile: capture, sampleRate: sampleRate, channels: channels)
    }

    /// Waits until the recording holds what the sink played until now. Data reaches the file in
    /// the order it was played: once the file grew by `settle` frames after this call and ends
    /// in `settle` silent frames after the last audible one, what was on its way (far less than
    /// that, but for a recorder starved of CPU) has arrived, and the audio's end with it. Ends
    /// early when the recorder has ended (its server went away).
    private func settle() async throws {
        let settle = sampleRate / 2
        var recorded = SinkCapture(file: capture, frameBytes: frameBytes)
        recorded.readOn()
        let start = recorded.frames
        for _ in 0..<Self.patience {
            if recorder.hasEnded { return }
            recorded.readOn()
            if recorded.frames - start >= settle && recorded.trailingSilence >= settle { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("\(name): the recording never ended in silence (\(recorded.frames) frames, audible until \(recorded.audibleEnd))")
    }

    private func stop(settled: Bool) async throws {
        var failure: (any Error)?
        if settled {
            do { try await settle() } catch { failure = error }
        }
        recorder.signal(SIGTERM)
        _ = await recorder.wait()
        keeper.signal(SIGTERM)
        _ = await keeper.wait()
        _ = try? await ChildProcess.run("pactl", ["-s", server, "unload-module", module])
        if let failure { throw failure }
    }
}
