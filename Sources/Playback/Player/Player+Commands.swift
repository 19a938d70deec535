import Base
import FoundationEssentials
import Model

/// Carrying out commands: each changes the state, publishes it, and — for a jump — starts a new
/// pipeline at the new place.
extension Player {

    func execute(_ command: PlayerCommand) async {
        switch command {
        case .play:
            switch state.status {
            case .playing: break
            case .paused:
                guard soundServerWait == nil else {
                    resumeWhenBack = true  // plays as soon as the server is back
                    return
                }
                await output.setPaused(false)
                if pipeline == nil, let current = state.current {
                    // Held since the sound server went away: the pipeline starts again where it was.
                    await start(current, at: state.position.seconds)
                } else if let current = state.current, state.currentInfo?.isLive == true, let pausedAt,
                          ContinuousClock.now - pausedAt > .seconds(settings.liveResumeWithin) {
                    // What the buffer holds is stale: the station is taken up live again.
                    logger.info("station paused longer than its buffer holds: playing it live", metadata: ["entry": "\(current.id)"])
                    await start(current, at: 0)
                } else {
                    state.position = anchor(at: state.position.seconds, moving: state.currentInfo != nil)
                }
                set(.playing)
            case .stopped:
                if let entry = startingEntry() { await start(entry, at: 0) }
            }
        case .pause:
            guard state.status == .playing else {
                resumeWhenBack = false
                return
            }
            await output.setPaused(true)
            pausedAt = .now
            let heard = await output.position()
            state.position = anchor(at: heard?.seconds ?? state.position.seconds(at: .now))
            if let current = state.current {
                noteProgress(of: current.id, at: state.position.seconds)
                noteHeard(current, at: state.position.seconds)
            }
            set(.paused)
        case .playPause:
            await execute(state.status == .playing ? .pause : .play)
        case .stop:
            await stopPipeline()
        case .next:
            guard let current = state.current else { return }
            if let following = state.queue.entry(after: current.id) {
                await move(to: following)
            } else {
                await execute(.stop)
            }
        case .previous:
            guard let current = state.current else { return }
            await move(to: state.queue.entry(before: current.id) ?? current)
        case .seek(to: let seconds):
            // A station cannot seek (MPRIS says so: CanSeek false); a client that asks anyway is ignored.
            guard state.status != .stopped, seconds.isFinite, let current = state.current, state.currentInfo?.isLive != true else { return }
            let target = max(0, seconds)
            if let duration = state.currentInfo?.duration, target >= duration {
                await execute(.next)
                return
            }
            await start(current, at: target)
        case .skip(by: let offset):
            guard offset.isFinite, let now = await position() else { return }
            await execute(.seek(to: now.seconds + offset))
        case .chapter(let jump):
            await jumpToChapter(jump)
        case .setSpeed(let speed):
            await changeSpeed(to: speed)
        case .playEntry(let id, let seconds):
            guard seconds.isFinite, let entry = state.queue.entry(id: id) else { return }
            await start(entry, at: seconds)
        case .playNow(let id):
            await execute(.playEntry(id, at: 0))
            await execute(.play)
        case .cue(let id, let seconds):
            guard seconds.isFinite, let entry = state.queue.entry(id: id) else { return }
            resumeWhenBack = false  // cued: paused, also once a lost sound server is back
            if state.status == .playing {
                await output.setPaused(true)
                set(.paused)
            }
            await start(entry, at: max(0, seconds), paused: true)
        case .add(let items, let placement, let play):
            let edit = state.queue.insert(fitting(items), at: placement)
            await queueChanged(edit)
            if play, let first = edit.added.first { await execute(.playNow(first.id)) }
        case .replaceQueue(let items, let playlist, let play):
            await stopPipeline()
            state.queue.replace(with: fitting(items, replacing: true), playlist: playlist)
            state.currentInfo = nil
            state.artwork = nil
            await queueReplaced()
            if play, let first = state.queue.first { await execute(.playNow(first.id)) }
        case .remove(let id):
            let following = state.queue.entry(after: id)
            guard let edit = state.queue.take(id) else { return }
            await queueChanged(edit)
            guard id == state.current?.id else { return }
            if let following, following.id != id {
                await move(to: following)
            } else {
                await execute(.stop)
                makeCurrent(nil)
            }
        case .move(let id, let index):
            guard let edit = state.queue.move(id, to: index) else { return }
            await queueChanged(edit)
        case .shuffleQueue(let positions):
            guard let edit = state.queue.shuffleEntries(in: positions) else { return }
            await queueChanged(edit)
        case .setVolume(let level):
            guard level.isFinite else { return }
            state.volume = max(0, level)
            await output.setVolume(state.volume)
            publish(.volumeChanged(state.volume))
        case .setLoop(let mode):
            state.queue.loop = mode
            publish(.loopChanged(mode))
        case .setShuffle(let on):
            state.queue.setShuffle(on)
            publish(.shuffleChanged(on))
        case .configure(let settings):
            // From the next track on (as MPD does): the one playing keeps its level.
            self.settings = settings
            replayGainFollows()
        case .setReplayGain(let mode):
            state.replayGainChosen = mode
            replayGainFollows()
        case .sleep(let date):
            state.sleepAt = date
            state.sleepsAtChapterEnd = false
            armSleepTimer()
            publish(.timersChanged)
        case .sleepAtChapterEnd(let on):
            sleepAtChapterEnd(on)
        case .stopAfterCurrent(let on):
            guard on != state.stopsAfterCurrent else { return }
            state.stopsAfterCurrent = on
            publish(.timersChanged)
        }
    }

    /// Next and previous: playing or paused, the new track starts (paused stays paused);
    /// stopped, it only becomes the current track, as MPRIS asks.
    func move(to entry: QueueEntry) async {
        if state.status == .stopped {
            makeCurrent(entry)
        } else {
            await start(entry, at: 0)
        }
    }

    /// Another entry is current without playing.
    func makeCurrent(_ entry: QueueEntry?) {
        state.queue.setCurrent(entry)
        state.currentInfo = nil
        state.artwork = nil
        publish(.currentChanged(entry))
    }

    /// The first of `items` that fit within the queue's limits. The fronts refuse what would not
    /// fit before asking (`QueueIntake`); this is the last line, for what comes another way (the
    /// files given to `play`) or two requests that met: never a queue past its limits.
    private func fitting(_ items: [QueueItem], replacing: Bool = false) -> [QueueItem] {
        guard state.queue.overflow(adding: items, replacing: replacing) != nil else { return items }
        var entries = replacing ? 0 : state.queue.entries.count
        var bytes = replacing ? 0 : state.queue.locationBytes
        let taken = items.prefix { item in
            entries += 1
            bytes += item.location.uri.utf8.count
            return entries <= PlayQueue.maxEntries && bytes <= PlayQueue.maxLocationBytes
        }
        logger.warning("the queue is full: \(items.count - taken.count) of \(items.count.counted("track")) not added",
                       metadata: ["entries": "\(PlayQueue.maxEntries)", "bytes": "\(PlayQueue.maxLocationBytes)"])
        return Array(taken)
    }

    /// Where Play from stopped starts: the current entry if it is still queued, else the first.
    func startingEntry() -> QueueEntry? {
        if let current = state.current, let stillQueued = state.queue.entry(id: current.id) { return stillQueued }
        return state.queue.first
    }

    /// The plan (and so the tracks that start from now on) takes the ReplayGain mode in force —
    /// the one a client chose, else `[playback]`'s — and a change of it is told.
    func replayGainFollows() {
        let mode = state.replayGainChosen ?? settings.loudness.mode
        guard mode != state.replayGainMode else {
            pipeline?.follow(plan)
            return
        }
        state.replayGainMode = mode
        publish(.replayGainChanged(mode))
    }

    /// Publishes a change of the queue's entries with how much of each the cache holds: the
    /// loader follows the tracks added and stops following those no entry holds any more, says at
    /// once how much of the new ones is here, and reports later changes (`.cacheState`) — in
    /// proportion to the edit, not to the queue.
    func queueChanged(_ edit: QueueEdit) async {
        let (states, dropped) = await loader.followCacheStates(adding: edit.added.map(\.location), removing: edit.removed.map(\.location))
        for location in dropped { state.cached[location] = nil }
        state.cached.merge(states) { _, new in new }
        publish(.queueChanged(edit))
    }

    /// Publishes a queue replaced whole: the loader follows its tracks instead of the old ones.
    func queueReplaced() async {
        let locations = state.queue.entries.map(\.location)
        let kept = Set(locations)
        state.cached = state.cached.filter { kept.contains($0.key) }
        state.cached.merge(await loader.followCacheStates(of: locations)) { _, new in new }
        publish(.queueReplaced)
    }
}
