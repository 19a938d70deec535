import Foundation
import Model
import Output
import Playback
import Testing
import TestSupport

/// The state machine, driven through its commands, playing through the real-time null output.
@Suite(.timeLimit(.minutes(2)))
struct PlayerCommandTests {
    private func makePlayer(_ files: [Fixtures.File]) async throws -> (Player, [QueueEntry], EventLog) {
        let player = Player.running(output: OutputActor(device: NullOutput()))
        var urls: [URL] = []
        for file in files { urls.append(try await Fixtures.shared.url(file)) }
        let entries = await player.perform(.add(urls.map { QueueItem(location: TrackLocation(url: $0)) }, at: .end, play: false)).queue.entries
        return (player, entries, EventLog(player))
    }

    @Test("play, next, seek, seek past the end, previous, stop and play again")
    func navigation() async throws {
        let (player, entries, log) = try await makePlayer([.vbrMP3, .secondMP3, .monoOpus])
        defer { Task { await player.shutdown() } }

        await player.perform(.play)
        try await log.status(.playing)
        #expect(try await log.trackStarted() == (entries[0], 0))

        await player.perform(.next)
        #expect(try await log.trackStarted() == (entries[1], 0))
        #expect(player.latest.current == entries[1])

        await player.perform(.seek(to: 2.0))
        _ = try await log.next("seeked") { if case .seeked(2.0) = $0.change { true } else { false } }
        #expect(try await log.trackStarted() == (entries[1], 2.0))
        let position = try #require(await player.position())
        #expect(position.entry == entries[1])
        #expect(position.seconds >= 2.0)

        await player.perform(.seek(to: 600))  // past the end: next
        #expect(try await log.trackStarted() == (entries[2], 0))

        await player.perform(.previous)
        #expect(try await log.trackStarted() == (entries[1], 0))

        await player.perform(.stop)
        try await log.status(.stopped)
        #expect(await player.position() == nil)

        await player.perform(.play)  // Stop then Play restarts the current track from 0
        #expect(try await log.trackStarted() == (entries[1], 0))
    }

    @Test("pause freezes the position; play resumes from it")
    func pauseFreezesPosition() async throws {
        let (player, entries, log) = try await makePlayer([.cbrMP3])
        defer { Task { await player.shutdown() } }
        await player.perform(.playEntry(entries[0].id, at: 1.0))
        _ = try await log.trackStarted()
        await player.perform(.pause)
        try await log.status(.paused)
        let frozen = try #require(await player.position())
        // Nothing may move while paused: a window to watch, not a wait for something to happen.
        try await Task.sleep(for: .milliseconds(300))
        #expect(await player.position() == frozen)
        #expect(frozen.seconds >= 1.0)

        await player.perform(.playPause)
        try await log.status(.playing)
        #expect(try await eventually { (await player.position()?.seconds ?? 0) > frozen.seconds }, "the position moves on from \(frozen)")
    }

    @Test("a seek while paused stays paused, at the new place")
    func seekWhilePaused() async throws {
        let (player, entries, log) = try await makePlayer([.cbrMP3])
        defer { Task { await player.shutdown() } }
        await player.perform(.play)
        _ = try await log.trackStarted()
        await player.perform(.pause)
        // From where the pause left it (however long the machine took to get there), 3 s on.
        let paused = try #require(await player.position()).seconds
        await player.perform(.skip(by: 3))
        #expect(player.latest.status == .paused)
        let position = try #require(await player.position())
        #expect(position.entry == entries[0])
        #expect(abs(position.seconds - (paused + 3)) < 0.01)
    }

    @Test("next while stopped moves to the next track without playing it")
    func nextWhileStopped() async throws {
        let (player, entries, log) = try await makePlayer([.monoOpus, .monoMP3])
        defer { Task { await player.shutdown() } }
        await player.perform(.play)
        #expect(try await log.trackStarted() == (entries[0], 0))
        await player.perform(.stop)
        await player.perform(.next)
        #expect(player.latest.status == .stopped)
        #expect(player.latest.current == entries[1])
        await player.perform(.play)
        #expect(try await log.trackStarted() == (entries[1], 0))
    }

    @Test("with a track loop the track plays again when it ends")
    func trackLoopRepeats() async throws {
        let player = Player.running(output: OutputActor(device: NullOutput(paced: false)))
        let log = EventLog(player)
        let urls = [try await Fixtures.shared.url(.monoOpus), try await Fixtures.shared.url(.monoMP3)]
        let entries = await player.perform(.add(urls.map { QueueItem(location: TrackLocation(url: $0)) }, at: .end, play: false)).queue.entries
        await player.perform(.setLoop(.track))
        await player.perform(.play)
        #expect(try await log.trackStarted() == (entries[0], 0))
        #expect(try await log.trackStarted() == (entries[0], 0))
        await player.perform(.setLoop(.none))
        // The repeat already under way may still come round once; then the queue moves on.
        _ = try await log.trackStarted(entries[1])
        await player.shutdown()
    }

    @Test("next on the last track stops (a stop, not the queue's end); played to its end, the end is reported once")
    func nextAtEndStops() async throws {
        let (player, entries, log) = try await makePlayer([.monoOpus])
        defer { Task { await player.shutdown() } }
        await player.perform(.play)
        #expect(try await log.trackStarted() == (entries[0], 0))
        await player.perform(.next)
        try await log.status(.stopped)
        #expect(player.latest.status == .stopped)

        await player.perform(.playEntry(entries[0].id, at: 0))
        _ = try await log.next("the end") { if case .queueFinished = $0.change { true } else { false } }
        // Events come in order: once the volume change is seen, any second end would have been too.
        await player.perform(.setVolume(0.5))
        _ = try await log.next("the volume") { if case .volumeChanged = $0.change { true } else { false } }
        #expect(log.seen.count { if case .queueFinished = $0.change { true } else { false } } == 1)
        #expect(log.seen.contains { if case .statusChanged(.stopped) = $0.change { true } else { false } })
    }

    @Test("a bad track is reported and skipped; the queue plays on to its end")
    func badTrackSkipped() async throws {
        let (player, entries, log) = try await makePlayer([.random, .monoOpus])
        defer { Task { await player.shutdown() } }
        await player.perform(.play)
        let failure = try await log.next("a failure") { if case .trackFailed = $0.change { true } else { false } }
        guard case .trackFailed(let failed, _) = failure.change else { return }
        #expect(failed == entries[0])
        #expect(try await log.trackStarted() == (entries[1], 0))
        _ = try await log.next("the end") { if case .queueFinished = $0.change { true } else { false } }
        #expect(player.latest.status == .stopped)
    }

    @Test("a looping queue whose every track fails stops after one round instead of retrying forever")
    func allFailingQueueStops() async throws {
        let player = Player.running(output: OutputActor(device: NullOutput()))
        let missing = try Fixtures.shared.scratchDirectory()
        await player.perform(.add([QueueItem(location: TrackLocation(url: missing.appendingPathComponent("a.mp3"))), QueueItem(location: TrackLocation(url: missing.appendingPathComponent("b.mp3")))],
                                 at: .end, play: false))
        let log = EventLog(player)
        defer { Task { await player.shutdown() } }
        await player.perform(.setLoop(.playlist))
        await player.perform(.play)
        _ = try await log.next("queue finished") { if case .queueFinished = $0.change { true } else { false } }
        #expect(player.latest.status == .stopped)
        let failures = log.seen.filter { if case .trackFailed = $0.change { true } else { false } }.count
        #expect(failures == 2, "each track tried once")
    }
}
