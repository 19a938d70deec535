import Foundation
import Testing
import TestSupport

/// A source whose password is slow to come (a `password_command` waiting for a keyring's unlock
/// prompt) holds up only itself (issue 24): another source's track starts as soon as it would
/// without it, and a track that plays goes on without a gap. Two WebDAV servers (rclone), a
/// daemon on a private bus playing into a null sink of its own, driven over MPRIS and Manager1.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SlowSecretTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    static let path = "/org/mpris/MediaPlayer2"
    /// How long source A's password command takes.
    static let secretSeconds = 8

    /// Source "slow" (A): a password command that takes `secretSeconds`, leaves `mark` when it
    /// starts and `answered` when it ends. Source "fast" (B): its password in the file, behind a fault proxy that can pace it.
    private struct Rig {
        let slow: WebDAVTestServer
        let fast: WebDAVTestServer
        let proxy: FaultProxy
        let bus: DBusTestBus
        let sink: TestSink
        let daemon: ChildProcess
        let mark: URL
        let answered: URL

        init(_ files: [Fixtures.File]) async throws {
            slow = try await WebDAVTestServer()
            fast = try await WebDAVTestServer()
            proxy = try FaultProxy(originPort: fast.port)
            for file in files {
                _ = try slow.publish(try await Fixtures.shared.url(file), as: file.rawValue)
                _ = try fast.publish(try await Fixtures.shared.url(file), as: file.rawValue)
            }
            let directory = try Fixtures.shared.scratchDirectory()
            mark = directory.appendingPathComponent("secret-asked")
            answered = directory.appendingPathComponent("secret-answered")
            let config = directory.appendingPathComponent("config.toml")
            try Data("""
                [[source]]
                name = "slow"
                type = "webdav"
                url = "\(slow.baseURL.absoluteString)"
                username = "\(slow.username)"
                password_command = "touch '\(mark.path)'; sleep \(SlowSecretTests.secretSeconds); touch '\(answered.path)'; echo '\(slow.password)'"

                [[source]]
                name = "fast"
                type = "webdav"
                url = "\(proxy.baseURL.absoluteString)"
                username = "\(fast.username)"
                password = "\(fast.password)"
                """.utf8).write(to: config)
            bus = try await DBusTestBus()
            sink = try await PulseTestServer.shared.makeSink()
            daemon = try ChildProcess(BuiltProducts.cloudplayerd,
                                      ["daemon", "--output", "pulse:\(sink.name)", "--config", config.path, "--log-level", "info"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
                                                                            "PULSE_SERVER": sink.server]) { $1 })
            #expect(try await bus.waitForName(SlowSecretTests.name), "the daemon never took its name: \(daemon.errorSoFar())")
        }

        /// The URL of a file of source "fast".
        func fastURL(_ file: Fixtures.File) -> String { proxy.baseURL.appendingPathComponent(file.rawValue).absoluteString }

        /// A MPRIS method of the player, through `busctl`.
        func call(_ interface: String, _ arguments: String...) async throws -> ProcessResult {
            try await bus.run("busctl", ["--address=\(bus.address)", "call", SlowSecretTests.name, SlowSecretTests.path,
                                         "org.mpris.MediaPlayer2." + interface] + arguments)
        }

        /// `busctl call` as a child of its own, for a call that waits for source A's secret.
        func callInBackground(_ interface: String, _ arguments: String...) throws -> ChildProcess {
            try ChildProcess("busctl", ["--address=\(bus.address)", "call", "--timeout=60", SlowSecretTests.name, SlowSecretTests.path,
                                        "org.mpris.MediaPlayer2." + interface] + arguments, environment: bus.environment)
        }

        /// `cloudplayerctl scan slow`, left running: it waits for the scan.
        func scanSlowSource() throws -> ChildProcess {
            try ChildProcess(BuiltProducts.cloudplayerctl, ["scan", "slow"], environment: bus.environment)
        }

        /// How many times the daemon has said "now playing" (the output heard a track's first frame).
        var tracksHeard: Int { daemon.errorSoFar().components(separatedBy: "now playing").count - 1 }

        /// Waits until the daemon has said "now playing" `count` times (false after 60 s, a bound
        /// that only a failure reaches).
        func waitUntilHeard(_ count: Int) async throws -> Bool {
            try await eventually { tracksHeard >= count }
        }

        /// Waits until source A's password command has started.
        func waitUntilSecretAsked() async throws -> Bool {
            try await eventually { FileManager.default.fileExists(atPath: mark.path) }
        }

        /// Where the listener is in the track, in seconds, as MPRIS says (`x MICROSECONDS`).
        func position() async throws -> Double {
            let result = try await bus.run("busctl", ["--address=\(bus.address)", "get-property", SlowSecretTests.name, SlowSecretTests.path,
                                                      "org.mpris.MediaPlayer2.Player", "Position"])
            return Double(result.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "").map { $0 / 1e6 } ?? 0
        }

        /// Stops the daemon and the bus; returns what the daemon printed.
        func stop() async -> ProcessResult {
            daemon.signal(SIGTERM)
            let result = await daemon.wait()
            await bus.stop()
            proxy.stop()
            return result
        }
    }

    @Test("Source A's password command takes 8 s while A is scanned: OpenUri of source B's uncached track is heard before A's command has ended")
    func otherSourceStartsAtOnce() async throws {
        let rig = try await Rig([.vbrMP3, .secondMP3])
        let scan = try rig.scanSlowSource()
        #expect(try await rig.waitUntilSecretAsked(), "A's password command never ran: \(rig.daemon.errorSoFar())")
        let opened = try await rig.call("Player", "OpenUri", "s", rig.fastURL(.vbrMP3))
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try await rig.waitUntilHeard(1), "B's track was never heard: \(rig.daemon.errorSoFar())")
        // The order of two events, not a time: B was heard while A's command still ran (before
        // the change, B's download waited on the loader's thread for A's secret: 8.9 s).
        #expect(!FileManager.default.fileExists(atPath: rig.answered.path), "B's track was heard only after A's password came")

        // A itself is scanned once its password came: slow, not broken.
        let scanned = await scan.wait()
        #expect(scanned.status == 0 && scanned.stdout.contains("slow: 1 folder, 2 tracks"), "\(scanned.stdout)\(scanned.stderr)")
        let result = await rig.stop()
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("B's track plays while A's password command (8 s) is run for a track of A added to the queue and for a scan of A: no frame of B missing or repeated")
    func playingTrackHasNoGap() async throws {
        let rig = try await Rig([.longMP3, .secondMP3])
        let file = try await Fixtures.shared.url(.longMP3)
        // Paced to twice the music's rate: B's bytes are still coming in while A's secret is read.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        rig.proxy.setRate(bytesPerSecond: size / 30)
        #expect(try await rig.call("Player", "OpenUri", "s", rig.fastURL(.longMP3)).status == 0)
        #expect(try await rig.waitUntilHeard(1), "B's track was never heard: \(rig.daemon.errorSoFar())")

        // While B plays: A's track probed for the queue (the loader asks for A's secret), then a
        // scan of A (its listing asks too).
        let added = try rig.callInBackground("TrackList", "AddTrack", "sob", rig.slow.baseURL.appendingPathComponent("second.mp3").absoluteString,
                                             "/org/mpris/MediaPlayer2/TrackList/NoTrack", "false")
        #expect(try await rig.waitUntilSecretAsked(), "A's password command never ran: \(rig.daemon.errorSoFar())")
        let scan = try rig.scanSlowSource()
        // Heard on well past the secret's wait; the first `compared` seconds are compared.
        let compared = Self.secretSeconds + 4
        #expect(try await eventually { try await rig.position() >= Double(compared + 2) }, "B's track did not play on")
        // What the player has played reaches the recording later on a loaded machine (once by
        // 2 s): waited for before the recording stops.
        try await rig.sink.waitForAudio(seconds: Double(compared + 1))

        let recording = try await rig.sink.finish()
        let reference = try await ReferenceDecoder.mpg123(file)
        let frames = compared * reference.sampleRate
        let heard = recording.audibleSpan().lowerBound, played = reference.audibleSpan().lowerBound
        do {
            let gaps = try recording.frames(from: heard, to: heard + frames).gaps(against: reference.frames(from: played, to: played + frames))
            #expect(gaps.totalLoss == 0 && gaps.waits == 0, "\(gaps)")
        } catch {
            Issue.record("B's track did not play on as it is: \(error)")
        }
        let addedResult = await added.wait()
        #expect(addedResult.status == 0, "\(addedResult.stderr)")
        let scanned = await scan.wait()
        #expect(scanned.status == 0, "\(scanned.stdout)\(scanned.stderr)")
        let result = await rig.stop()
        #expect(result.status == 0, "\(result.stderr)")
    }
}
