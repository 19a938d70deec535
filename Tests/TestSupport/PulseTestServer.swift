import Foundation

/// A private, headless PulseAudio server on a unix socket in a temporary folder, stopped when
/// the test process ends (a `ServerProcess`). `shared` serves the whole test run, and each test
/// takes its own null sink, so tests running side by side never hear each other; a test that
/// stops and starts a server (a sound server restarting under a player) makes its own.
public actor PulseTestServer {
    public static let shared = PulseTestServer()

    /// One start for everyone who asks at once; nil while stopped.
    private var startup: Task<String, any Error>?
    private var process: ServerProcess?
    /// The folder of the socket and the log: the same across restarts, so the address is too.
    private var directory: URL?
    private var sinkCount = 0

    public init() {}

    /// The server address for libpulse (`unix:/…/native`), starting the server if it is not running.
    public func serverAddress() async throws -> String {
        if startup == nil { startup = Task { try await start() } }
        return try await startup!.value
    }

    /// Stops the server, as a package upgrade or `systemctl --user restart` does (TERM), and
    /// waits until it is gone; its sinks and streams go with it. `serverAddress()` starts it again.
    public func stop() async {
        startup = nil
        await process?.stop()
        process = nil
    }

    private func start() async throws -> String {
        let directory = try self.directory ?? Fixtures.shared.scratchDirectory()
        self.directory = directory
        chmod(directory.path, 0o700)
        let socket = directory.appendingPathComponent("native").path
        let server = try ServerProcess("pulse-server", command: #"pulseaudio "$@""#,
                                       arguments: ["-n", "--daemonize=no", "--exit-idle-time=-1",
                                                   "--log-target=file:\(directory.path)/server.log",
                                                   "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socket)"],
                                       environment: ["XDG_RUNTIME_DIR": directory.path, "HOME": directory.path])
        process = server
        let candidate = "unix:\(socket)"
        for _ in 0..<200 {
            if let info = try? await ChildProcess.run("pactl", ["-s", candidate, "info"]), info.status == 0 {
                return candidate
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOfFile: directory.appendingPathComponent("server.log").path, encoding: .utf8)) ?? ""
        throw TestSupportError("the test PulseAudio server did not come up: \(server.errorSoFar())\(log)")
    }

    /// A new null sink of its own, clocked and recorded from the start.
    public func makeSink(sampleRate: Int = 44100, channels: Int = 2) async throws -> TestSink {
        let server = try await serverAddress()
        sinkCount += 1
        let name = "test\(sinkCount)"
        let loaded = try await ChildProcess.check("pactl", ["-s", server, "load-module", "module-null-sink", "sink_name=\(name)",
                                                            "rate=\(sampleRate)", "channels=\(channels)", "format=s16le", "norewinds=1"])
        let module = loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await TestSink(server: server, name: name, module: module, sampleRate: sampleRate, channels: channels)
    }
}

/// One null sink: a silent stream keeps its clock running (an idle null sink stalls a new
/// stream), and `parec` records its monitor into a file.
public final class TestSink: Sendable {
    public let server: String
    public let name: String
    public let sampleRate: Int
    public let channels: Int
    private let module: String
    private let capture: URL
    private let keeper: ChildProcess
    private let recorder: ChildProcess

    init(server: String, name: String, module: String, sampleRate: Int, channels: Int) async throws {
        self.server = server
        self.name = name
        self.module = module
        self.sampleRate = sampleRate
        self.channels = channels
        capture = try Fixtures.shared.scratchDirectory().appendingPathComponent("capture.raw")
        let format = ["--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=\(channels)"]
        keeper = try ChildProcess("pacat", ["-s", server, "-p", "-d", name, "--latency-msec=20"] + format,
                                  input: .file(URL(fileURLWithPath: "/dev/zero")))
        recorder = try ChildProcess("parec", ["-s", server, "-d", "\(name).monitor"] + format + [capture.path])
        // Recording has begun once the keeper's silence reaches the file.
        for _ in 0..<200 {
            let size = (try? FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int) ?? 0
            if size > 0 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("parec recorded nothing from \(name).monitor")
    }

    /// Stops recording and returns everything the sink played.
    public func finish() async throws -> PCMAudio {
        recorder.signal(SIGTERM)
        _ = await recorder.wait()
        keeper.signal(SIGTERM)
        _ = await keeper.wait()
        _ = try? await ChildProcess.run("pactl", ["-s", server, "unload-module", module])
        return try PCMAudio(rawFile: capture, sampleRate: sampleRate, channels: channels)
    }
}
