import Foundation
import Testing
import TestSupport

/// Scrobbling to ListenBrainz (issue 18), against the local server that follows the API's
/// documentation (Tests/CloudEmulators/listenbrainz.py): "playing now" when a track starts, a
/// listen once half of it has been heard with the time it started, listens kept on disk while the
/// service is away — across a kill -9 — and sent later in order, each recorded once; a refused
/// token pauses scrobbling and nothing else; the rate-limit headers are honoured.
@Suite struct ScrobblingTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    static let token = "5ee6c0ae-token-of-alice"

    /// A daemon on a private bus with `[scrobble]` pointing at `url`, its token in a file.
    private struct Rig {
        let bus: DBusTestBus
        let home: URL
        let config: URL
        let tokenFile: URL
        var daemon: ChildProcess

        static func start(url: URL, token: String = ScrobblingTests.token) async throws -> Rig {
            let bus = try await DBusTestBus()
            let home = try Fixtures.shared.scratchDirectory()
            let tokenFile = home.appendingPathComponent("listenbrainz.token")
            try Data((token + "\n").utf8).write(to: tokenFile)
            let config = home.appendingPathComponent("config.toml")
            try Self.writeConfig(config, url: url, tokenFile: tokenFile)
            let daemon = try launch(bus: bus, config: config, home: home)
            #expect(try await bus.waitForName(ScrobblingTests.name))
            return Rig(bus: bus, home: home, config: config, tokenFile: tokenFile, daemon: daemon)
        }

        static func writeConfig(_ config: URL, url: URL, tokenFile: URL) throws {
            try Data("""
                [scrobble]
                listenbrainz_url = "\(url.absoluteString)"
                listenbrainz_token_file = "\(tokenFile.path)"
                """.utf8).write(to: config)
        }

        static func launch(bus: DBusTestBus, config: URL, home: URL) throws -> ChildProcess {
            try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--log-level", "debug", "--config", config.path],
                             environment: bus.environment.merging(["XDG_CACHE_HOME": home.path]) { $1 })
        }

        /// The listens waiting on disk, as the daemon wrote them.
        var journal: [[String: Any]] {
            let file = bus.dataHome.appendingPathComponent("cloudplayerd/listens.jsonl")
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        func play(_ files: [Fixtures.File]) async throws {
            var paths: [String] = []
            for file in files { paths.append(try await Fixtures.shared.url(file).path) }
            let added = try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "add", "--play"] + paths)
            #expect(added.status == 0, "\(added.stderr)")
        }

        func status() async throws -> [String: Any] {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, ["status", "--json"])
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }

        /// kill -9: nothing is saved on the way out.
        mutating func crashAndRestart(url: URL? = nil) async throws {
            daemon.signal(SIGKILL)
            _ = await daemon.wait()
            if let url { try Self.writeConfig(config, url: url, tokenFile: tokenFile) }
            daemon = try Self.launch(bus: bus, config: config, home: home)
            #expect(try await bus.waitForName(ScrobblingTests.name))
        }

        func stop() async -> ProcessResult {
            daemon.signal(SIGTERM)
            let result = await daemon.wait()
            await bus.stop()
            return result
        }
    }

    @Test("a track heard: playing now, then one listen with its tags and the second it started; the token in no log line")
    func listenOfAPlayedTrack() async throws {
        let service = try await ListenBrainzTestServer(tokens: [Self.token: "alice"])
        let rig = try await Rig.start(url: service.url)
        let before = Int(Date().timeIntervalSince1970)
        try await rig.play([.vbrMP3])
        #expect(try await eventually { try await !service.state().playingNow.isEmpty })
        let startedBy = Int(Date().timeIntervalSince1970)
        #expect(try await eventually { try await !service.state().listens.isEmpty })
        // Played to its end: still one listen.
        #expect(try await eventually { try await rig.status()["status"] as? String == "Stopped" })
        let state = try await service.state()
        let now = try #require(state.playingNow.first)
        #expect(now.artist == "Some Artist" && now.track == "Vbr Title" && now.listenedAt == nil)
        #expect(state.listens.count == 1)
        let listen = try #require(state.listens.first)
        #expect(listen.user == "alice" && listen.artist == "Some Artist" && listen.track == "Vbr Title" && listen.release == "Some Album")
        #expect((before...startedBy).contains(listen.listenedAt ?? 0), "listened_at \(listen.listenedAt ?? 0) not in \(before)…\(startedBy)")
        #expect(abs((listen.durationMs ?? 0) - 6000) < 100)
        #expect(state.answers.map(\.type) == ["playing_now", "single"] && state.answers.allSatisfy { $0.status == 200 })
        #expect(rig.journal.isEmpty)
        let log = await rig.stop()
        #expect(log.stderr.contains("scrobbled"))
        #expect(!log.stderr.contains(Self.token))
        await service.stop()
    }

    @Test("heard since it started: a seek past the middle is no listen; each play of a looped track is one, with its own time")
    func heardMeansHeard() async throws {
        let service = try await ListenBrainzTestServer(tokens: [Self.token: "alice"])
        let rig = try await Rig.start(url: service.url)
        // 60 s, tagged: jumped to 55 s moments after it starts, far less than half of it is heard
        // (a busy machine only delays the jump; it would take 25 s to make it a listen).
        let long = try await Tagger.copy(try await Fixtures.shared.url(.longOpus), to: try Fixtures.shared.scratchDirectory(),
                                         named: "long.opus", fields: ["TITLE": "Long Title", "ARTIST": "Long Artist"])
        let added = try await rig.bus.run(BuiltProducts.cloudplayerctl, ["queue", "add", "--play", long.path])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await eventually { try await service.state().playingNow.count == 1 })
        #expect(try await rig.bus.run(BuiltProducts.cloudplayerctl, ["seek", "55"]).status == 0)
        #expect(try await eventually { try await rig.status()["status"] as? String == "Stopped" })
        #expect(try await service.state().listens.isEmpty)
        #expect(rig.journal.isEmpty)
        #expect(try await rig.bus.run(BuiltProducts.cloudplayerctl, ["queue", "clear"]).status == 0)

        // Looped (a 6 s track): every pass from its start is a play of its own.
        #expect(try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "loop", "Track"]).status == 0)
        try await rig.play([.vbrMP3])
        #expect(try await eventually(within: 120) { try await service.state().listens.count >= 2 })
        _ = try await rig.bus.run(BuiltProducts.cloudplayerctl, ["stop"])
        let times = try await service.state().listens.compactMap(\.listenedAt).sorted()
        #expect(times.count >= 2 && times[1] - times[0] >= 5, "\(times)")
        _ = await rig.stop()
        await service.stop()
    }

    @Test("the service out of reach: listens wait on disk through a kill -9, then go in order in one import, each with its own time")
    func offlineListensSurviveACrash() async throws {
        let service = try await ListenBrainzTestServer(tokens: [Self.token: "alice"])
        // Nothing listens on this port: connections are refused, as offline.
        let nowhere = URL(string: "http://127.0.0.1:\(try ServerProcess.freePort())")!
        var rig = try await Rig.start(url: nowhere)
        try await rig.play([.vbrMP3, .opus])
        #expect(try await eventually { rig.journal.count == 2 })
        let kept = rig.journal
        #expect(kept.map { $0["track"] as? String } == ["Vbr Title", "Opus Title"])

        try await rig.crashAndRestart(url: service.url)
        #expect(try await eventually { try await service.state().listens.count == 2 })
        let state = try await service.state()
        #expect(state.listens.map(\.track) == ["Vbr Title", "Opus Title"])
        #expect(state.listens.map(\.listenedAt) == kept.map { $0["listenedAt"] as? Int })
        // (The restarted daemon plays on where it was: a "playing now", but not a listen again.)
        let sent = state.answers.filter { $0.type != "playing_now" }
        #expect(sent.map(\.type) == ["import"] && sent.map(\.count) == [2], "\(state.answers)")
        #expect(try await eventually { rig.journal.isEmpty })
        _ = await rig.stop()
        await service.stop()
    }

    @Test("a crash after the service stored a listen but before its answer: sent again with the same time, recorded once")
    func resentAfterACrashIsRecordedOnce() async throws {
        let service = try await ListenBrainzTestServer(tokens: [Self.token: "alice"])
        var rig = try await Rig.start(url: service.url)
        try await service.configure(hangAfterStore: 600)
        try await rig.play([.vbrMP3])
        #expect(try await eventually { try await service.state().listens.count == 1 })
        #expect(rig.journal.count == 1)  // stored there, but no answer came: still queued
        try await service.configure(hangAfterStore: 0)
        try await rig.crashAndRestart()
        #expect(try await eventually { try await service.state().answers.filter { $0.type == "single" }.count == 2 })
        #expect(try await eventually { rig.journal.isEmpty })
        let state = try await service.state()
        #expect(state.listens.count == 1, "\(state.listens)")
        _ = await rig.stop()
        await service.stop()
    }

    @Test("a refused token: one clear error, playing goes on, the listen is kept; a new token (SIGHUP) sends it")
    func refusedTokenPausesScrobblingOnly() async throws {
        let service = try await ListenBrainzTestServer(tokens: [Self.token: "alice"])
        let wrong = "0ld-revoked-token-of-alice"
        let rig = try await Rig.start(url: service.url, token: wrong)
        try await rig.play([.vbrMP3, .opus])
        #expect(try await eventually { try await service.state().answers.contains { $0.status == 401 && $0.type == "?" && $0.count == 0 } })
        // Playing goes on to the second track and its end, which is heard too.
        #expect(try await eventually { try await rig.status()["status"] as? String == "Stopped" })
        #expect(rig.journal.count == 2)
        #expect(try await service.state().listens.isEmpty)
        let paused = try await rig.status()
        #expect(paused["listens_waiting"] as? Int == 2 && (paused["scrobble_problem"] as? String)?.contains("refused the user token") == true,
                "\(paused)")
        let shown = try await rig.bus.run(BuiltProducts.cloudplayerctl, ["status"]).stdout
        #expect(shown.contains("scrobbling: paused — ListenBrainz refused the user token"), "\(shown)")

        try Data((Self.token + "\n").utf8).write(to: rig.tokenFile)
        rig.daemon.signal(SIGHUP)
        #expect(try await eventually { try await service.state().listens.count == 2 })
        #expect(try await eventually { try await rig.status()["listens_waiting"] as? Int == 0 })
        #expect(try await rig.status()["scrobble_problem"] == nil)
        let log = await rig.stop()
        let refusals = log.stderr.split(separator: "\n").filter { $0.contains("ListenBrainz refused the user token") }
        #expect(refusals.count == 1, "\(log.stderr)")
        #expect(!log.stderr.contains(wrong) && !log.stderr.contains(Self.token))
        await service.stop()
    }

    @Test("rate limits: with the window used up the next request waits for it instead of being refused; a 429 is waited out")
    func rateLimitsAreHonoured() async throws {
        let service = try await ListenBrainzTestServer(tokens: [Self.token: "alice"])
        let rig = try await Rig.start(url: service.url)
        // One request in 12 s: "playing now" uses it; the listen, due ~4 s later, must wait for
        // the next window (X-RateLimit-Remaining 0, X-RateLimit-Reset-In) — sent at once it is refused.
        try await service.configure(limit: 1, window: 12)
        try await rig.play([.vbrMP3])
        #expect(try await eventually { try await service.state().listens.count == 1 })
        var state = try await service.state()
        #expect(state.answers.map(\.type) == ["playing_now", "single"], "\(state.answers)")
        #expect(state.answers.allSatisfy { $0.status == 200 }, "\(state.answers)")

        try await service.configure(limit: 60, rateLimit: 1)
        try await rig.play([.opus])
        #expect(try await eventually { try await service.state().listens.count == 2 })
        state = try await service.state()
        #expect(state.answers.filter { $0.status == 429 }.count == 1, "\(state.answers)")
        _ = await rig.stop()
        await service.stop()
    }
}
