import Base
import FoundationEssentials
import Logging
import Model
import Playback
import ServiceLifecycle

/// Keeps the saved playback state current, so a restart — or a crash — comes back where the
/// listener was. Two records, each written only when it changed: the queue and settings a second
/// after a change to them, and the place (current track, position) a second after a jump and
/// every few seconds while playing. It saves from the state the events carry, never asking the
/// player; with nothing playing and nothing changing it does not wake at all.
///
/// It runs on a thread of its own: each save ends in an fsync, which must stay off the
/// cooperative pool. A `Service`: it restores, follows, and saves once more as the daemon stops.
package actor StateKeeper {
    /// A change is saved this long after it: a burst of changes is one save.
    static let settleTime = Duration.seconds(1)
    /// While playing, the position is saved this often: a crash loses at most this much of it.
    static let positionEvery = Duration.seconds(3)

    private let executor = ThreadExecutor(name: "state")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    private let player: Player
    private let events: AsyncStream<PlayerEvent>
    /// Saved queue locations back into queue items (placed among the sources, with what the
    /// library knows).
    private let items: @Sendable ([String]) async -> [QueueItem]
    private let queueFile: StateFile<PlaybackState>
    private let placeFile: StateFile<PlaybackPlace>
    private let logger = Logger(label: "cloudplayerd.state")
    /// The state the last event carried.
    private var latest = PlayerSnapshot()
    /// The queue and settings changed since they were last saved.
    private var queueChanged = false
    private var savedPlace: PlaybackPlace?
    /// The save to come, if one is scheduled, and when it is due.
    private var nextSave: (task: Task<Void, Never>, due: ContinuousClock.Instant)?
    /// Set once stopping: nothing more is scheduled.
    private var stopped = false

    package init(player: Player, instance: String?, items: @escaping @Sendable ([String]) async -> [QueueItem]) {
        self.player = player
        self.items = items
        // Subscribed now, so no change is missed between here and `run()`.
        events = player.subscribe()
        queueFile = StateFile("state", instance: instance, withoutIt: "starting with an empty queue")
        placeFile = StateFile("place", instance: instance, withoutIt: "starting at the start of the queue")
    }

    deinit {
        executor.shutdown()
    }

    /// Puts the saved queue back, the current track paused at its saved place, and the timers.
    private func restore() async {
        guard let saved = queueFile.load() else { return }
        // A timer that ran out while the daemon was down has nothing left to do.
        if let sleepAt = saved.sleepAt, sleepAt > Date() { await player.perform(.sleep(at: sleepAt)) }
        if saved.stopAfterCurrent == true { await player.perform(.stopAfterCurrent(true)) }
        // The player's settings, with a queue or without one.
        if saved.volume.isFinite { await player.perform(.setVolume(min(max(saved.volume, 0), 1.5))) }
        if let mode = LoopMode(rawValue: saved.loop) { await player.perform(.setLoop(mode)) }
        if let chosen = saved.replayGain.flatMap(ReplayGainSettings.Mode.init(rawValue:)) { await player.perform(.setReplayGain(chosen)) }
        guard !saved.queue.isEmpty else { return }
        let added = await player.perform(.add(saved.relinked(await items(saved.queue)), at: .end, play: false)).queue.entries
        if saved.shuffle { await player.perform(.setShuffle(true)) }
        if let place = saved.place(placeFile.load()), added.indices.contains(place.index) {
            await player.perform(.cue(added[place.index].id, at: place.seconds))
        }
        // Of the track now current: so set once it is.
        if saved.sleepAtChapterEnd == true { await player.perform(.sleepAtChapterEnd(true)) }
    }

    private func follow() async {
        for await event in events.cancelOnGracefulShutdown() { note(event) }
    }

    /// Stops following and saves once more (on SIGTERM).
    private func stop() {
        stopped = true
        nextSave?.task.cancel()
        nextSave = nil
        save()
    }

    private func note(_ event: PlayerEvent) {
        latest = event.snapshot
        switch event.change {
        case .buffering, .artworkReady, .trackEnded, .positionCorrected, .cacheChanged, .listenStarted, .listened, .streamSongChanged: return
        // Already playing when it started watching: the position is saved from now on.
        case .subscribed: if event.snapshot.status == .playing { schedule(after: Self.positionEvery) }
        case .queueChanged, .queueReplaced, .volumeChanged, .loopChanged, .shuffleChanged, .timersChanged, .replayGainChanged:
            queueChanged = true
            schedule(after: Self.settleTime)
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

    /// Writes what changed: the queue record if it did, the place if it moved.
    private func save() {
        StopDeadline.whileSaving { saveChanges() }
    }

    private func saveChanges() {
        do {
            if queueChanged {
                try queueFile.save(PlaybackState(latest))
                queueChanged = false
            }
            let place = PlaybackPlace(latest)
            if let place, place != savedPlace {
                try placeFile.save(place, syncingFolder: false)
                savedPlace = place
            }
        } catch {
            logger.warning("playback state not saved", metadata: ["reason": "\(error)"])
        }
    }
}

extension StateKeeper: Service {
    /// Restores the saved state, then keeps it saved until the daemon stops, and saves once more.
    package nonisolated func run() async {
        await restore()
        await follow()
        await stop()
    }
}
