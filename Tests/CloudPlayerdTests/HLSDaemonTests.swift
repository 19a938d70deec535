import Foundation
import Testing
import TestSupport

/// HLS through the daemon (null output, a private bus) as MPRIS clients see it: a playlist that
/// ends (VOD) has a length and seeks — `playerctl position` lands where it asked, starting at the
/// segment that holds the time and fetching none of those before it; a live playlist has neither,
/// and the titles its packed-audio segments carry in ID3 reach `playerctl metadata` as they are
/// heard; a live stream whose server froze stops within a second, by Stop and by SIGTERM.
@Suite(.timeLimit(.minutes(4))) struct HLSDaemonTests {
    /// The index of the segment that holds `seconds`, by the playlist's durations.
    private func segment(holding seconds: Double, of set: ServedHLS) -> Int {
        var begins = 0.0
        for (index, duration) in set.durations.enumerated() {
            if seconds < begins + duration { return index }
            begins += duration
        }
        return set.durations.count
    }

    @Test("a VOD playlist opened with playerctl: CanSeek, mpris:length its duration; `playerctl position 10` lands at 10 s (Seeked) and goes on from the segment that holds it, fetching none before it")
    func vodSeeks() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.tsAAC, on: server)
        // Until the seek the segments come slowly (2 kB/s, a segment in about 17 s), so those
        // before 10 s are not all fetched when it comes: a seek that fetched them would show.
        // (Played on at full speed, every segment is fetched at once and kept.) At 8 kB/s the
        // second segment was asked for before a loaded machine got to the seek (the suite's run
        // beside 23 other tests).
        let proxy = try FaultProxy(originPort: server.port)
        defer { proxy.stop() }
        proxy.setRate(bytesPerSecond: 2000)
        let url = try #require(URL(string: "\(set.path)/index.m3u8", relativeTo: proxy.baseURL)?.absoluteURL)
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        let monitor = try ChildProcess("gdbus", ["monitor", "--address", rig.bus.address, "--dest", DaemonRig.name,
                                                 "--object-path", DaemonRig.path], environment: rig.bus.environment)
        defer { monitor.signal(SIGTERM) }
        #expect(try await eventually(within: 30) { monitor.outputSoFar().contains("is owned by") }, "gdbus never subscribed")

        let opened = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "open", url.absoluteString])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try await eventually(within: 60) { try await rig.property("CanSeek") == "b true" }, "\(rig.daemon.errorSoFar())")
        let duration = set.durations.reduce(0, +)
        let length = try #require(Double(try await rig.metadata("mpris:length")), "no mpris:length") / 1_000_000
        #expect(abs(length - duration) < 0.001, "mpris:length \(length) s, the playlist's \(duration) s")

        let holding = segment(holding: 10, of: set)
        let before = set.requestPath(set.segments[holding - 1])
        #expect(server.count(of: before) == 0 && !proxy.log.contains { $0.path == before },
                "the segment before 10 s was fetched before the seek: the test shows nothing; \(server.requests())")
        proxy.setRate(bytesPerSecond: nil)  // the fetches to come (not those under way)
        let seeking = ContinuousClock.now
        let moved = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "position", "10"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try await eventually(within: 30) { monitor.outputSoFar().contains("Player.Seeked") }, "\(rig.daemon.errorSoFar())")
        let to = monitor.outputSoFar().firstMatch(of: /Player\.Seeked \(int64 (\d+),\)/).flatMap { Double($0.1) }.map { $0 / 1_000_000 }
        #expect(to.map { abs($0 - 10) < 0.001 } == true, "Seeked to \(to.map { "\($0)" } ?? "nothing")")
        let position = try #require(Double(try await rig.property("Position").dropFirst(2)), "no Position") / 1_000_000
        #expect(position >= 10 && position < 10 + (ContinuousClock.now - seeking) / .seconds(1) + 0.5, "Position \(position) s after the seek")

        // What was fetched: the rest of the set from the segment that holds 10 s, once each, after
        // the seek; from the first of them on, nothing before it; the segment before it never.
        // Read from the proxy's log, which has when each request came (nginx's logs it when the
        // answer is sent: one under way at the seek may end later).
        let fetched = await proxy.settledLog().filter { $0.method == "GET" && $0.path.hasPrefix(set.path + "/seg") }
        let segments = set.segments.map(set.requestPath)
        for index in holding..<segments.count {
            #expect(fetched.filter { $0.path == segments[index] }.map { $0.at >= seeking } == [true], "\(segments[index]): \(fetched)")
        }
        let resumed = try #require(fetched.first { $0.path == segments[holding] }).at
        let afterwards = fetched.filter { $0.at >= resumed }.compactMap { segments.firstIndex(of: $0.path) }
        #expect(afterwards.allSatisfy { $0 >= holding }, "from the seek's segment \(holding) on: \(afterwards)")
        #expect(!fetched.contains { $0.path == before }, "\(fetched.map(\.path))")
    }

    @Test("a live playlist (packed audio) opened with playerctl: no seek, no length; its segments' ID3 titles reach playerctl as they are heard, song after song")
    func liveTitles() async throws {
        // The daemon first: the stream is joined a few segments from its start, before the songs change.
        let rig = try await DaemonRig.start()
        let server = try await HLSServer()
        let live = try await HLSLiveEncoder(.packedAudio, on: server)
        defer { Task { await rig.stop(); await live.stop() } }
        let opened = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "open", live.playlistURL.absoluteString])
        #expect(opened.status == 0, "\(opened.stderr)")
        // It prints what plays as it starts, then each change.
        let follower = try await rig.follow("{{artist}}|{{title}}")
        defer { follower.stop() }
        // The songs that begin after it was joined, each with its artist, as they come.
        let expected = live.titles.dropFirst().map { "\($0.artist)|\($0.title)" }
        #expect(try await eventually(within: 60) { follower.said(expected[0]) }, "\(follower.lines()); \(rig.daemon.errorSoFar())")
        #expect(try await rig.property("CanSeek") == "b false")
        #expect(try await rig.metadata("mpris:length") == "")
        #expect(try await eventually(within: 60) { follower.said(expected[1]) }, "\(follower.lines())")
        let heard = follower.lines().map(String.init).filter(expected.contains)
        #expect(heard.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == expected, "\(follower.lines())")
        #expect(try await rig.metadata("title") == live.titles.last?.title)
        #expect(try await rig.metadata("artist") == live.titles.last?.artist)
    }

    enum Action: String, CaseIterable, CustomStringConvertible {
        case stop, sigterm
        var description: String { rawValue }
    }

    @Test("a live HLS stream whose server froze (SIGSTOP), its buffer played out: Stop and SIGTERM take effect within a second",
          arguments: Action.allCases)
    func stopWhileFrozen(_ action: Action) async throws {
        let bound = Duration.seconds(1)
        let server = try await HLSServer()
        let live = try await HLSLiveEncoder(.packedAudio, on: server)
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop(); await live.stop() } }
        try await rig.open(live.playlistURL)
        let follower = try await rig.follow("{{status}}|{{title}}")
        defer { follower.stop() }
        let frozenAt = follower.mark()
        server.freeze(true)
        defer { server.freeze(false) }
        // What it had is played; it waits for the frozen server, and shows as paused.
        #expect(try await eventually(within: 60) { follower.said("Paused|", since: frozenAt) },
                "\(follower.lines(since: frozenAt)); \(rig.daemon.errorSoFar())")
        let seen = follower.mark()
        let took: Duration?
        switch action {
        case .stop: took = try await rig.timeCall("Stop", until: "Stopped|", on: follower, since: seen, within: bound * 10)
        case .sigterm: took = await rig.timeSignal(SIGTERM)
        }
        let elapsed = try #require(took, "\(action) did not take effect; \(rig.daemon.errorSoFar())")
        #expect(elapsed < bound, "\(action) took \(elapsed)")
    }
}
