import Base
import Foundation
import Logging
import Model
import Playback

/// Keeps the saved playback state current, so a restart — or a crash — comes back where the
/// listener was: a second after any change the player announces, and every few seconds while
/// playing (the position moves). It saves from the state the events carry, never asking the
/// player; with nothing playing and nothing changing it does not wake at all.
///
/// It runs on a thread of its own: each save ends in an fsync, which must stay off the
/// cooperative pool.
package actor StateKeeper {
    /// A change is saved this long after it: a burst of changes is one save.
    static let settleTime = Duration.seconds(1)
    /// While playing, the position is saved this often (each save is an fsync): a crash loses
    /// at most this much of the position.
    static let positionEvery = Duration.seconds(3)

    private let executor = ThreadExecutor(name: "state")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    private let player: Player
    private let file: StateFile
    private let logger = Logger(label: "cloudplayerd.state")
    /// The state the last event carried.
    private var latest = PlayerSnapshot()
    private var lastSaved: PlaybackState?
    private var watcher: Task<Void, Never>?
    /// The save to come, if one is scheduled, and when it is due.
    private var nextSave: (task: Task<Void, Never>, due: ContinuousClock.Instant)?
    /// Set by `stop()`: nothing more is scheduled.
    private var stopped = false

    package init(player: Player, instance: String?) {
        self.player = player
        file = StateFile.default(instance: instance)
    }

    deinit {
        executor.shutdown()
    }

    /// Puts the saved queue back, the current track paused at its saved place, and the timers;
    /// `items` turns saved locations into queue items (placed among the sources, with what the
    /// library knows).
    package func restore(_ items: @Sendable ([String]) async -> [QueueItem]) async {
        guard let saved = file.load() else { return }
        // A timer that ran out while the daemon was down has nothing left to do.
        if let sleepAt = saved.sleepAt, sleepAt > Date() { await player.perform(.sleep(at: sleepAt)) }
        if saved.stopAfterCurrent == true { await player.perform(.stopAfterCurrent(true)) }
        guard !saved.queue.isEmpty else { return }
        let items = await items(saved.queue)
        let added = await player.perform(.add(items, at: .end, play: false)).queue.entries
        if saved.volume.isFinite { await player.perform(.setVolume(min(max(saved.volume, 0), 1.5))) }
        if let mode = LoopMode(rawValue: saved.loop) { await player.perform(.setLoop(mode)) }
        if saved.shuffle { await player.perform(.setShuffle(true)) }
        if let index = saved.current, added.indices.contains(index) {
            await player.perform(.cue(added[index].id, at: saved.position))
        }
    }

    /// Starts following the player's events.
    package func start() {
        guard watcher == nil else { return }
        let events = player.subscribe()
        watcher = Task { [weak self] in
            for await event in events { await self?.note(event) }
        }
    }

    /// Stops following and saves once more (on SIGTERM).
    package func stop() async {
        stopped = true
        watcher?.cancel()
        nextSave?.task.cancel()
        nextSave = nil
        save()
    }

    private func note(_ event: PlayerEvent) {
        latest = event.snapshot
        switch event.change {
        case .buffering, .artworkReady, .trackEnded, .positionCorrected: return
        // Already playing when it started watching: the position is saved from now on.
        case .subscribed: if event.snapshot.status == .playing { schedule(after: Self.positionEvery) }
        default: schedule(after: Self.settleTime)
        }
    }

    /// Saves after `delay`, or sooner if a save is due sooner already.
    private func schedule(after delay: Duration) {
        guard !stopped else { return }
        let due = ContinuousClock.now + delay
        if let nextSave {
            guard due < nextSave.due else { return }
            nextSave.task.cancel()
        }
        let task = Task { [weak self] in
            try? await Task.sleep(until: due)
            guard !Task.isCancelled else { return }
            await self?.saveScheduled()
        }
        nextSave = (task, due)
    }

    private func saveScheduled() {
        nextSave = nil
        guard !stopped else { return }
        save()
        if latest.status == .playing { schedule(after: Self.positionEvery) }
    }

    private func save() {
        let state = PlaybackState(latest)
        guard state != lastSaved else { return }
        do {
            try file.save(state)
            lastSaved = state
        } catch {
            logger.warning("playback state not saved", metadata: ["reason": "\(error)"])
        }
    }
}

extension PlaybackState {
    /// What the daemon saves of a player's state: locations only, never credentials.
    init(_ snapshot: PlayerSnapshot) {
        let position = snapshot.seconds()
        self.init(queue: snapshot.queue.entries.map(\.location.uri),
                  current: snapshot.current.flatMap { snapshot.queue.index(of: $0.id) },
                  position: position.isFinite ? max(0, position) : 0, volume: snapshot.volume,
                  loop: snapshot.queue.loop.rawValue, shuffle: snapshot.queue.shuffle,
                  sleepAt: snapshot.sleepAt, stopAfterCurrent: snapshot.stopsAfterCurrent ? true : nil)
    }
}
