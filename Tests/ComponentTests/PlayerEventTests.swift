import Foundation
import Model
import Output
import Playback
import Testing
import TestSupport

/// The player's promise to its listeners: every change is published with the whole state, in
/// order, so that MPRIS, Manager1 and the state file never need to ask back.
@Suite(.timeLimit(.minutes(2)))
struct PlayerEventTests {
    /// The parts of a snapshot a listener shows.
    private struct Shown: Equatable {
        let status: PlaybackStatus
        let current: QueueEntry.ID?
        let queue: [QueueEntry.ID]
        let playlist: Int64?
        let seconds: Double
        let volume: Double
        let loop: LoopMode
        let shuffle: Bool

        init(_ snapshot: PlayerSnapshot) {
            status = snapshot.status
            current = snapshot.current?.id
            queue = snapshot.queue.entries.map(\.id)
            playlist = snapshot.queue.playlist
            seconds = snapshot.position.seconds
            volume = snapshot.volume
            loop = snapshot.queue.loop
            shuffle = snapshot.queue.shuffle
        }
    }

    private func items(_ files: [Fixtures.File]) async throws -> [QueueItem] {
        var items: [QueueItem] = []
        for file in files { items.append(QueueItem(location: TrackLocation(url: try await Fixtures.shared.url(file)))) }
        return items
    }

    @Test("a new listener starts from the state as it is")
    func subscribedFirst() async throws {
        let player = Player.running(output: OutputActor(device: NullOutput()))
        defer { Task { await player.shutdown() } }
        let added = await player.perform(.add(try await items([.monoOpus, .monoMP3]), at: .end, play: false))
        await player.perform(.setVolume(0.5))
        var events = player.subscribe().makeAsyncIterator()
        let first = try #require(await events.next())
        guard case .subscribed = first.change else { Issue.record("first event: \(first.change)"); return }
        #expect(first.snapshot.queue.entries.map(\.id) == added.queue.entries.map(\.id))
        #expect(first.snapshot.volume == 0.5)
        #expect(first.snapshot.serial == player.latest.serial)
    }

    @Test("what a command returns is what an event published: nothing changes unannounced")
    func everyChangePublished() async throws {
        let player = Player.running(output: OutputActor(device: NullOutput()))
        defer { Task { await player.shutdown() } }
        let log = EventLog(player)
        let entries = await player.perform(.add(try await items([.cbrMP3, .secondMP3, .monoOpus]), at: .end, play: false)).queue.entries
        let commands: [PlayerCommand] = [
            .next, .play, .next, .seek(to: 1.5), .pause, .skip(by: 1), .playEntry(entries[0].id, at: 2), .play,
            .setLoop(.playlist), .setShuffle(true), .remove(entries[0].id), .cue(entries[2].id, at: 1),
            .replaceQueue([entries[1]].map { QueueItem(location: $0.location) }, playlist: 7, play: true), .stop,
        ]
        var lastSerial = log.seen.last?.snapshot.serial ?? 0
        for command in commands {
            let answer = await player.perform(command)
            var published = log.seen.first { $0.snapshot.serial == answer.serial }
            if published == nil {
                published = try await log.next("the event of \(command)'s answer") { $0.snapshot.serial >= answer.serial }
            }
            guard let published else { continue }
            #expect(published.snapshot.serial == answer.serial, "after \(command)")
            #expect(Shown(published.snapshot) == Shown(answer), "after \(command)")
            // Serials only grow: of two snapshots, the newer is known.
            let serials = log.seen.map(\.snapshot.serial).filter { $0 > lastSerial }
            #expect(serials == serials.sorted() && Set(serials).count == serials.count)
            lastSerial = log.seen.last?.snapshot.serial ?? lastSerial
        }
    }

    @Test("replacing the queue is one event, naming the playlist it came from; clearing it forgets the playlist")
    func queueReplaced() async throws {
        let player = Player.running(output: OutputActor(device: NullOutput()))
        defer { Task { await player.shutdown() } }
        let log = EventLog(player)
        let items = try await items([.monoOpus, .monoMP3])
        await player.perform(.add(items, at: .end, play: true))
        _ = try await log.trackStarted()
        let replaced = await player.perform(.replaceQueue(items.reversed(), playlist: 42, play: false))
        #expect(replaced.queue.playlist == 42 && replaced.current == nil && replaced.status == .stopped)
        #expect(replaced.queue.entries.map(\.location) == items.reversed().map(\.location))
        let event = try await log.next("the replacement") { if case .queueReplaced = $0.change { true } else { false } }
        #expect(event.snapshot.queue.entries.map(\.id) == replaced.queue.entries.map(\.id))
        // Nothing in between: the listener sees the old queue, then the new one, never an empty one.
        #expect(!log.seen.contains { event in
            if case .subscribed = event.change { false } else { event.snapshot.queue.entries.isEmpty }
        })

        await player.perform(.add(items, at: .end, play: false))
        #expect(player.latest.queue.playlist == 42, "adding to a playlist's queue keeps it active")
        let cleared = await player.perform(.replaceQueue([], play: false))
        #expect(cleared.queue.playlist == nil && cleared.queue.entries.isEmpty)
    }

    @Test("a seek keeps what is known of the track, and the published position is the target at once")
    func seekKeepsTrack() async throws {
        let player = Player.running(output: OutputActor(device: NullOutput()))
        defer { Task { await player.shutdown() } }
        let log = EventLog(player)
        await player.perform(.add(try await items([.vbrMP3]), at: .end, play: true))
        _ = try await log.trackStarted()
        let started = player.latest
        #expect(started.current?.metadata.tags.title == "Vbr Title")
        await player.perform(.pause)
        let sought = await player.perform(.seek(to: 3))
        #expect(sought.position.seconds == 3 && sought.seconds() == 3)
        let (entry, seconds) = try await log.trackStarted()
        #expect(seconds == 3)
        #expect(entry.metadata == started.current?.metadata)
        #expect(player.latest.currentInfo?.totalFrames == started.currentInfo?.totalFrames)
        #expect(player.latest.seconds() == 3, "paused: the position stays where the seek put it")
    }
}
