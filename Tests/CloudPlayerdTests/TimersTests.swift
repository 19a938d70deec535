import Foundation
import Testing
import TestSupport

/// The sleep timer and stop-after-this-track (issue 18), heard through a PulseAudio sink (the
/// fade through PipeWire's too): the fade is in the recording, the stop is where the track ends,
/// and both are kept across a restart.
@Suite(.serialized) struct TimersTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    /// A daemon on a private bus, playing into a sink of its own.
    private struct Rig {
        let bus: DBusTestBus
        let sink: TestSink
        let config: URL
        let home: URL
        var daemon: ChildProcess

        static func start(_ kind: PulseTestServer.Kind = .pulseaudio) async throws -> Rig {
            let bus = try await DBusTestBus()
            let sink = try await PulseTestServer.shared(kind).makeSink()
            let home = try Fixtures.shared.scratchDirectory()
            let config = home.appendingPathComponent("config.toml")
            try Data().write(to: config)
            let daemon = try launch(bus: bus, sink: sink, config: config, home: home)
            #expect(try await bus.waitForName(TimersTests.name))
            return Rig(bus: bus, sink: sink, config: config, home: home, daemon: daemon)
        }

        static func launch(bus: DBusTestBus, sink: TestSink, config: URL, home: URL) throws -> ChildProcess {
            try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "pulse:\(sink.name)", "--config", config.path],
                             environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "PULSE_SERVER": sink.server]) { $1 })
        }

        /// Stops the daemon (SIGTERM: it saves its state) and starts a new one on the same bus.
        mutating func restart() async throws {
            daemon.signal(SIGTERM)
            let ended = await daemon.wait()
            #expect(ended.status == 0, "\(ended.ending)")
            daemon = try Self.launch(bus: bus, sink: sink, config: config, home: home)
            #expect(try await bus.waitForName(TimersTests.name))
        }

        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }

        func status() async throws -> [String: Any] {
            let result = try await ctl("status", "--json")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }

        func stop() async throws -> PCMAudio {
            daemon.signal(SIGTERM)
            _ = await daemon.wait()
            await bus.stop()
            return try await sink.finish()
        }
    }

    @Test("stop-after: the current track plays to its last sample, nothing of the next is heard, and the next is current for Play")
    func stopAfter() async throws {
        var rig = try await Rig.start()
        let first = try await Fixtures.shared.url(.vbrMP3), second = try await Fixtures.shared.url(.secondMP3)
        #expect(try await rig.ctl("queue", "add", first.path, second.path).status == 0)
        #expect(try await rig.ctl("stop-after").status == 0)
        #expect(try await rig.status()["stop_after"] as? Bool == true)
        // Kept across a restart, as the queue is.
        try await rig.restart()
        #expect(try await rig.status()["stop_after"] as? Bool == true)
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        #expect(try await eventually { try await rig.status()["status"] as? String == "Stopped" })
        let after = try await rig.status()
        #expect(after["url"] as? String == second.absoluteString)
        #expect(after["stop_after"] == nil)
        let recording = try await rig.stop()

        let reference = try await ReferenceDecoder.mpg123(first)
        let gaps = try recording.gaps(against: reference)
        #expect(gaps.totalLoss == 0, "\(gaps)")
        // The first track's audio and no more: its length, give or take the waits of a start.
        let heard = recording.audibleSpan().count, played = reference.audibleSpan().count
        #expect(heard <= played + reference.sampleRate / 2, "heard \(heard) frames of a track of \(played)")
    }

    @Test("sleep: the last 10 s fade out, then Paused with the volume as it was; shown, cancelled, and kept across a restart",
          arguments: PulseTestServer.Kind.allCases)
    func sleepTimer(kind: PulseTestServer.Kind) async throws {
        var rig = try await Rig.start(kind)
        let long = try await Fixtures.shared.url(.longMP3)
        #expect(try await rig.ctl("sleep", "1h").status == 0)
        let shown = try await rig.ctl("sleep")
        #expect(shown.stdout.hasPrefix("pauses in 59:") || shown.stdout.hasPrefix("pauses in 1:00:00"), "\(shown.stdout)")
        try await rig.restart()
        #expect((try await rig.status()["sleep_left"] as? Double ?? 0) > 3500)
        #expect(try await rig.ctl("sleep", "off").status == 0)
        #expect(try await rig.status()["sleep_left"] == nil)
        #expect(try await rig.ctl("sleep", "soon").status != 0)

        #expect(try await rig.ctl("queue", "add", long.path, "--play").status == 0)
        #expect(try await eventually { try await rig.status()["status"] as? String == "Playing" })
        #expect(try await rig.ctl("sleep", "13s").status == 0)
        #expect(try await eventually { try await rig.status()["status"] as? String == "Paused" })
        let paused = try await rig.status()
        #expect(paused["sleep_left"] == nil)
        #expect(paused["volume"] as? Double == 1, "the player's volume is the user's, never the fade's")
        // The stream, paused (corked), has its own volume back at full for the next Play.
        // Ours: on this rig's sink (other tests' daemons play on the same server).
        let sinks = try await ChildProcess.check("pactl", ["-s", rig.sink.server, "list", "short", "sinks"]).stdout
        // Typed step by step: as one expression it took the type checker 9 s.
        let rows: [[Substring]] = sinks.split(separator: "\n").map { $0.split(separator: "\t") }
        let row: [Substring] = try #require(rows.first { $0.count > 1 && $0[1] == rig.sink.name })
        let index: Substring = row[0]
        let inputs = try await ChildProcess.check("pactl", ["-s", rig.sink.server, "list", "sink-inputs"]).stdout
        let ours = inputs.components(separatedBy: "Sink Input #").filter {
            $0.contains("application.name = \"cloudplayerd\"") && $0.contains("Sink: \(index)\n")
        }
        #expect(ours.count == 1 && ours.allSatisfy { $0.contains("/ 100% /") }, "\(inputs)")
        let recording = try await rig.stop()

        // The recording: the track at full level, then the fade, then nothing.
        let reference = try await ReferenceDecoder.mpg123(long)
        let heard = recording.frames(from: recording.audibleSpan().lowerBound, to: recording.audibleSpan().upperBound)
        let rate = recording.sampleRate
        #expect(heard.frameCount > 10 * rate, "only \(heard.frameCount) frames heard")
        let start = try #require(reference.firstFrame(matching: heard.frames(from: 0, to: rate)), "the recording is not the track")
        // The first seconds, before the fade, are the track as it is (bit for bit through PulseAudio;
        // PipeWire's graph, starved of CPU, may drop a few frames of its own — the levels below
        // hold either way).
        if kind == .pulseaudio {
            #expect(heard.frames(from: 0, to: 2 * rate) == reference.frames(from: start, to: start + 2 * rate))
        }
        // Over the fade each 2 s are quieter than the 2 s before, relative to the track itself.
        let end = heard.frameCount
        func level(_ from: Int) -> Double {
            heard.frames(from: from, to: from + 2 * rate).rms / max(1, reference.frames(from: start + from, to: start + from + 2 * rate).rms)
        }
        let levels = stride(from: end - 10 * rate, to: end - 2 * rate + 1, by: 2 * rate).map(level)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $1 < $0 }, "\(levels)")
        #expect(levels.first.map { $0 > 0.6 } == true && levels.last.map { $0 < 0.35 } == true, "\(levels)")
    }
}
