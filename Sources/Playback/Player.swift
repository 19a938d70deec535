import Base
import Decoding
import Foundation
import Loader
import Logging
import Model
import Output

/// The playback state machine: the queue, where playback is, and the one place that talks to the
/// loader, the decoder and the output.
///
/// Every jump — play from stopped, seek, next, previous — is the same mechanism: tear down the
/// pipeline (loader → decoder → bounded queue → output) and build a new one at the new place. Pause is
/// the output's. Commands, and the pipeline's own reports, arrive on one `AsyncStream` and are
/// handled strictly one after another: a burst of media-key presses can never interleave two
/// teardowns, a track ending can never land in the middle of a pause, and the state (`PlayerSnapshot`,
/// the queue in it) changes nowhere else. Every change is published with the whole new state.
package actor Player {
    private struct Pipeline {
        let producer: Task<Void, Never>
        let consumer: Task<Void, Never>
    }

    /// What the player's mailbox carries: requests from outside, reports from its pipeline.
    private enum Message: Sendable {
        case command(PlayerCommand, CheckedContinuation<PlayerSnapshot, Never>?)
        case output(OutputEvent, generation: Int)
        case trackFailed(QueueEntry, any Error, generation: Int)
        case buffering(QueueEntry, Bool, generation: Int)
        /// Time to compare the position clients interpolate with what the output has played.
        case checkPosition
        /// The sound server answers again and has a sink (`OutputActor.reconnect`).
        case soundServerBack
        /// Cover art the track's source keeps apart from the file, now in a local file.
        case sourceArtwork(QueueEntry, URL)
        /// How much of a queued track the cache holds changed (`LoaderActor.followCacheStates`).
        case cacheState(CacheStateChange)
    }

    /// PCM packets decoded ahead of the output: up to about 3 s at 44.1 kHz, 512 KiB.
    private static let queuedPackets = 4

    private let loader: LoaderActor
    private let decoder: DecoderActor
    private let output: OutputActor
    private let logger = Logger(label: "cloudplayerd.player")

    /// The listeners, and the last event published: a new listener starts from its state.
    private let listeners = Broadcast<PlayerEvent>()
    private let mailbox: AsyncStream<Message>.Continuation

    /// The state; changed only while a message is handled.
    private var state = PlayerSnapshot()
    private var pipeline: Pipeline?
    /// Bumped by every teardown, so events from an old pipeline are recognised and ignored.
    private var generation = 0
    /// While playing: asks now and then for the position to be checked against the output.
    private var positionClock: Task<Void, Never>?
    /// Entries reported heard to their source (`LoaderActor.played`) since they last started:
    /// once per play, even when the next track starts before this one's end is heard.
    private var reportedHeard: Set<UInt64> = []
    /// The current play of an entry, as a listen counts it: when it began, and how much of it
    /// has been heard since — a seek forward is not heard, a track resumed near its end is not
    /// heard yet, and a track started again from its start (a loop, Previous) is a new play.
    private struct Listening {
        let entry: UInt64
        let startedAt: Date
        /// Where playback was when last looked at.
        var last: Double
        var heard = 0.0

        init(entry: UInt64, from seconds: Double) {
            self.entry = entry
            startedAt = Date()
            last = seconds
        }

        /// The output has played on to `seconds`: the way there was heard. (Jumps never come
        /// this way: a seek starts the stream anew, `jump(to:)`.)
        mutating func advance(to seconds: Double) {
            heard += max(0, seconds - last)
            last = max(last, seconds)
        }

        /// A jump to `seconds` (a seek): nothing heard, the place moves.
        mutating func jump(to seconds: Double) {
            last = seconds
        }
    }

    private var listening: Listening?
    /// Heard: half the track, or this much of a longer one (as Last.fm and Subsonic count).
    private static let heardAfter = 240.0
    /// How often, while playing, the position is checked against what the output has played
    /// (a stream that starts late, a pause in the sound server, a clock that runs its own way).
    private static let positionCheckEvery = Duration.seconds(2)
    /// Closer than this, the interpolated position is left as it is.
    private static let positionTolerance = 0.05
    /// While the sound server is away: the task that tries to reach it again. Commands still work
    /// (status Paused, the place kept); only no pipeline is built until it is back.
    private var soundServerWait: Task<Void, Never>?
    /// Whether playing goes on by itself when the sound server is back: it was playing when the
    /// server went away, or Play was pressed since.
    private var resumeWhenBack = false
    /// How often a lost sound server is tried again: the most the issue allows (one attempt a
    /// second), so sound is back at most a second after the server.
    private static let soundServerRetryEvery = Duration.seconds(1)

    /// `[playback]`: ReplayGain, and which tracks resume where they were left.
    private var settings: PlaybackSettings
    /// Waits for the sleep timer, then fades out and pauses.
    private var sleepTask: Task<Void, Never>?
    /// How far before where a long track was left it starts again.
    private static let resumeBackoff = 5.0
    /// How long the sleep timer's fade lasts: the last part of the time it was given.
    package static let sleepFade = 10.0
    /// How often the fade lowers the volume: small steps, and few wake-ups.
    private static let fadeStep = Duration.milliseconds(250)

    package init(loader: LoaderActor = LoaderActor(), decoder: DecoderActor = DecoderActor(), output: OutputActor,
                 settings: PlaybackSettings = PlaybackSettings()) {
        self.loader = loader
        self.decoder = decoder
        self.output = output
        self.settings = settings
        let (messages, mailbox) = AsyncStream.makeStream(of: Message.self)
        self.mailbox = mailbox
        Task { await self.run(messages) }
        let cacheStates = loader.cacheStateChanges()
        Task {
            for await change in cacheStates { mailbox.yield(.cacheState(change)) }
        }
    }

    // MARK: Asking

    /// A new stream of everything that happens from now on, starting with the state as it is
    /// (`.subscribed`); it finishes after `shutdown()`.
    package nonisolated func subscribe() -> AsyncStream<PlayerEvent> {
        listeners.subscribe { last in PlayerEvent(change: .subscribed, snapshot: last?.snapshot ?? PlayerSnapshot()) }
    }

    private func publish(_ change: PlayerEvent.Change) {
        state.serial += 1
        let event = PlayerEvent(change: change, snapshot: state)
        // Only this actor publishes, so events go out in order; a listener that subscribes
        // meanwhile starts from the last one and so misses nothing.
        listeners.yield(event)
    }

    /// Queues a command without waiting for it.
    package nonisolated func send(_ command: PlayerCommand) {
        mailbox.yield(.command(command, nil))
    }

    /// Runs a command and returns the state once it has been carried out.
    @discardableResult
    package nonisolated func perform(_ command: PlayerCommand) async -> PlayerSnapshot {
        await withCheckedContinuation { done in
            if case .terminated = mailbox.yield(.command(command, done)) {
                done.resume(returning: latest)
            }
        }
    }

    /// The state as the last event published it: what a listener that has just asked something
    /// of the player, or does not follow its events, reads.
    package nonisolated var latest: PlayerSnapshot {
        listeners.last?.snapshot ?? PlayerSnapshot()
    }

    /// Whether a location can be played: its codec, or the error that playing it would meet.
    package func probe(_ location: TrackLocation) async throws -> AudioCodec {
        let source = try await loader.open(location)
        return try await decoder.probe(source)
    }

    /// What the listener hears now, as the output counts it; nil when stopped.
    package func position() async -> PlaybackPosition? {
        guard state.status != .stopped, let current = state.current else { return nil }
        if !state.position.moving { return PlaybackPosition(entry: current, seconds: state.position.seconds) }
        return await output.position()
    }

    /// Stops playback, ends the event streams and refuses further commands.
    package func shutdown() async {
        await perform(.sleep(at: nil))
        await perform(.stop)
        await loader.shutdown()
        mailbox.finish()
        listeners.finish()
    }

    // MARK: Carrying out

    /// Publishes a change of the queue's entries with how much of each the cache holds: the
    /// loader follows the tracks the queue holds now, says at once how much of the new ones is
    /// here, and reports later changes (`.cacheState`).
    private func queueChanged(replaced: Bool = false) async {
        let locations = state.queue.entries.map(\.location)
        let kept = Set(locations)
        state.cached = state.cached.filter { kept.contains($0.key) }
        state.cached.merge(await loader.followCacheStates(of: locations)) { _, new in new }
        publish(replaced ? .queueReplaced : .queueChanged)
    }

    private func run(_ messages: AsyncStream<Message>) async {
        for await message in messages {
            switch message {
            case .command(let command, let done):
                logger.debug("command", metadata: ["command": "\(command)", "status": "\(state.status.rawValue)"])
                await execute(command)
                done?.resume(returning: state)
            case .output(let event, let generation):
                guard generation == self.generation else { continue }
                await handle(event)
            case .trackFailed(let entry, let error, let generation):
                guard generation == self.generation else { continue }
                logger.info("track failed", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)", "reason": "\(error)"])
                publish(.trackFailed(entry, error))
            case .buffering(let entry, let waiting, let generation):
                guard generation == self.generation else { continue }
                // Bytes again: the output may have run dry meanwhile, so take its word for where it is.
                if !waiting { await checkPosition(announce: false) }
                publish(.buffering(entry, waiting))
            case .checkPosition:
                await checkPosition(announce: true)
            case .soundServerBack:
                await soundServerReturned()
            case .sourceArtwork(let entry, let file):
                // Still its track, and none better came with the file itself.
                guard state.current?.id == entry.id, state.artwork == nil else { continue }
                state.artwork = file
                publish(.artworkReady(entry, file))
            case .cacheState(let change):
                let entries = state.queue.entries.filter { $0.location == change.location }
                guard !entries.isEmpty, state.cached[change.location] != change.state else { continue }
                state.cached[change.location] = change.state
                publish(.cacheChanged(entries))
            }
        }
    }

    private func execute(_ command: PlayerCommand) async {
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
                } else {
                    state.position = PositionAnchor(seconds: state.position.seconds, moving: state.currentInfo != nil)
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
            let heard = await output.position()
            state.position = PositionAnchor(seconds: heard?.seconds ?? state.position.seconds(at: .now))
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
            guard state.status != .stopped, seconds.isFinite, let current = state.current else { return }
            let target = max(0, seconds)
            if let duration = state.currentInfo?.duration, target >= duration {
                await execute(.next)
                return
            }
            await start(current, at: target)
        case .skip(by: let offset):
            guard offset.isFinite, let now = await position() else { return }
            await execute(.seek(to: now.seconds + offset))
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
            let added = state.queue.add(items, at: placement)
            await queueChanged()
            if play, let first = added.first { await execute(.playNow(first.id)) }
        case .replaceQueue(let items, let playlist, let play):
            await stopPipeline()
            state.queue.replace(with: items, playlist: playlist)
            state.currentInfo = nil
            state.artwork = nil
            await queueChanged(replaced: true)
            if play, let first = state.queue.first { await execute(.playNow(first.id)) }
        case .remove(let id):
            let following = state.queue.entry(after: id)
            guard state.queue.remove(id) else { return }
            await queueChanged()
            guard id == state.current?.id else { return }
            if let following, following.id != id {
                await move(to: following)
            } else {
                await execute(.stop)
                makeCurrent(nil)
            }
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
        case .sleep(let date):
            state.sleepAt = date
            armSleepTimer()
            publish(.timersChanged)
        case .stopAfterCurrent(let on):
            guard on != state.stopsAfterCurrent else { return }
            state.stopsAfterCurrent = on
            publish(.timersChanged)
        }
    }

    /// Next and previous: playing or paused, the new track starts (paused stays paused);
    /// stopped, it only becomes the current track, as MPRIS asks.
    private func move(to entry: QueueEntry) async {
        if state.status == .stopped {
            makeCurrent(entry)
        } else {
            await start(entry, at: 0)
        }
    }

    /// Another entry is current without playing.
    private func makeCurrent(_ entry: QueueEntry?) {
        state.queue.setCurrent(entry)
        state.currentInfo = nil
        state.artwork = nil
        publish(.currentChanged(entry))
    }

    private func startingEntry() -> QueueEntry? {
        if let current = state.current, let stillQueued = state.queue.entry(id: current.id) { return stillQueued }
        return state.queue.first
    }

    /// How a track about to be decoded is scaled: the settings, and whether it plays among
    /// tracks of its own album (for `auto`).
    private func loudness(for entry: QueueEntry) -> (ReplayGainSettings, Bool) {
        (settings.loudness, settings.loudness.mode == .auto && state.queue.isInAlbumRun(entry.id))
    }

    /// Whether `entry` is long enough to start where it was left (`resume_longer_than`).
    private func isLong(_ entry: QueueEntry) -> Bool {
        guard let duration = entry.metadata.duration else { return false }
        return duration > settings.resumeLongerThan
    }

    /// Where a long track starts when played afresh: a little before where it was left, so it
    /// does not start in the middle of a word; nil: from its start.
    private func resumePoint(_ entry: QueueEntry) -> Double? {
        guard isLong(entry), !entry.metadata.played, let left = entry.metadata.resumeAt, left > 0 else { return nil }
        return max(0, left - Self.resumeBackoff)
    }

    /// Notes where a long track was left, or that it was heard to its end (within its last 30 s or
    /// 97 % of it), in its queue entry and — through the event — in the library.
    private func noteProgress(of id: QueueEntry.ID, at seconds: Double, ended: Bool = false) {
        guard let entry = state.queue.entry(id: id), isLong(entry), let duration = entry.metadata.duration,
              seconds.isFinite || ended else { return }
        let finished = ended || seconds >= duration - 30 || seconds >= 0.97 * duration
        var metadata = entry.metadata
        metadata.played = finished
        metadata.resumeAt = finished || seconds < 1 ? nil : seconds
        guard metadata != entry.metadata else { return }
        state.queue.update(id, metadata: metadata)
        publish(.progressChanged(state.queue.entry(id: id) ?? entry))
    }

    private func stopsAfter(_ entry: QueueEntry) -> Bool {
        state.stopsAfterCurrent && entry.id == state.current?.id
    }

    /// Stop-after, as `entry`'s last frame is heard: stopped, with the track that would have
    /// followed current, so Play goes on from there.
    private func stopAfter(_ entry: QueueEntry) async {
        let following = state.queue.entry(after: entry.id, automatically: true)
        state.stopsAfterCurrent = false
        await stopPipeline()
        if let following, following.id != entry.id {
            state.queue.setCurrent(following)
            state.currentInfo = nil
            state.artwork = nil
            publish(.currentChanged(following))
        }
        logger.notice("stopped after the track, as asked", metadata: ["track": "\(entry.displayName)"])
        publish(.timersChanged)
    }

    /// Waits for the sleep timer by the wall clock — read again after every wait, so a laptop
    /// that slept through it pauses on waking — then fades out.
    private func armSleepTimer() {
        sleepTask?.cancel()
        sleepTask = nil
        guard let deadline = state.sleepAt else { return }
        sleepTask = Task { [weak self] in
            while !Task.isCancelled {
                let untilFade = deadline.timeIntervalSinceNow - Self.sleepFade
                if untilFade <= 0 { break }
                try? await Task.sleep(for: .seconds(min(untilFade, 3600)))
            }
            await self?.fadeOutAndPause(at: deadline)
        }
    }

    /// The fade: the stream's volume (not the player's, which MPRIS shows) steps down to 0 by
    /// `deadline`, then playback pauses and the volume is put back. A cancelled timer puts it
    /// back at once.
    private func fadeOutAndPause(at deadline: Date) async {
        while !Task.isCancelled {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            if state.status == .playing { await output.setVolume(state.volume * min(1, left / Self.sleepFade)) }
            try? await Task.sleep(for: Self.fadeStep)
        }
        guard !Task.isCancelled else {
            await output.setVolume(state.volume)
            return
        }
        if state.status == .playing { await execute(.pause) }
        await output.setVolume(state.volume)
        state.sleepAt = nil
        sleepTask = nil
        logger.notice("sleep timer ran out: paused")
        publish(.timersChanged)
    }

    /// The entry the pipeline decodes after `id` when it ends by itself.
    private func entry(following id: QueueEntry.ID) -> QueueEntry? {
        state.queue.entry(after: id, automatically: true)
    }

    /// Builds a pipeline that plays from `entry` at `seconds` on through the queue, and publishes
    /// the jump: another current entry, or a seek within this one.
    /// A paused player stays paused (the output keeps its pause across streams); a stopped one
    /// starts paused when asked (`cue`).
    private func start(_ entry: QueueEntry, at requested: Double, paused: Bool = false) async {
        // The same entry again (a seek) keeps what its decoder learnt, and its tags are not read again.
        let sameEntry = entry.id == state.current?.id && state.currentInfo != nil
        if !sameEntry, state.status != .stopped, let left = state.current { noteProgress(of: left.id, at: state.seconds()) }
        noteHeardSoFar()
        await teardown()
        if state.status == .stopped { await output.setPaused(paused) }
        let generation = self.generation
        // Played afresh, a long track starts where it was left.
        let seconds = !sameEntry && requested == 0 ? resumePoint(entry) ?? 0 : requested
        if !sameEntry {
            state.currentInfo = nil
            state.artwork = nil
        }
        state.queue.setCurrent(entry)
        // Where the new pipeline starts, until the output plays its first frame: a seek's
        // target is the position at once, not only once audio arrives.
        state.position = PositionAnchor(seconds: seconds)
        publish(sameEntry ? .seeked(seconds: seconds) : .currentChanged(state.current))
        if soundServerWait != nil {
            // No sound server: only the place moves; the pipeline is built once it is back.
            if state.status == .stopped {
                resumeWhenBack = !paused
                set(.paused)
            }
            return
        }
        logger.debug("pipeline starts", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)", "seconds": "\(seconds)"])
        let packets = BoundedQueue<PCMPacket>(capacity: Self.queuedPackets)
        let producer = Task.detached { [self, loader, decoder, mailbox] in
            var next: QueueEntry? = entry
            var start = seconds
            var tagsKnown = sameEntry
            // A queue where every track fails (a server gone, with a loop on) stops after one
            // round instead of asking again forever.
            var failuresInARow = 0
            while let item = next, !Task.isCancelled {
                do {
                    // A seek, or the track again, is not a start: it waits for its bytes as it plays.
                    let source = try await loader.open(item.location, starting: !tagsKnown) {
                        mailbox.yield(.buffering(item, $0, generation: generation))
                    }
                    // A seek or skip must reach a decoder that waits for the network, on its thread.
                    try await withTaskCancellationHandler {
                        let (loudness, inAlbumRun) = await self.loudness(for: item)
                        try await decoder.decode(item, from: source, startingAt: start, readingTags: !tagsKnown,
                                                 loudness: loudness, inAlbumRun: inAlbumRun, into: packets)
                    } onCancel: {
                        source.cancel()
                    }
                    failuresInARow = 0
                } catch {
                    if Task.isCancelled { break }
                    mailbox.yield(.trackFailed(item, error, generation: generation))
                    failuresInARow += 1
                    if failuresInARow >= max(1, await self.queueLength) { break }
                }
                start = 0
                // Stop-after: nothing follows into the output (a flag set later, once the next
                // track is under way, is caught when this one's last frame is heard).
                if await self.stopsAfter(item) { break }
                next = await self.entry(following: item.id)
                if let following = next { start = await self.resumePoint(following) ?? 0 }
                tagsKnown = next?.id == item.id  // a track loop
            }
            packets.finish()
        }
        let consumer = Task.detached { [output, mailbox] in
            await output.play(packets) { mailbox.yield(.output($0, generation: generation)) }
        }
        pipeline = Pipeline(producer: producer, consumer: consumer)
        if state.status == .stopped { set(paused ? .paused : .playing) }
    }

    private var queueLength: Int { state.queue.entries.count }

    /// Stops: no pipeline, no pause kept for the next stream, the position back at 0.
    private func stopPipeline() async {
        if state.status != .stopped, let current = state.current { noteProgress(of: current.id, at: state.seconds()) }
        noteHeardSoFar()
        await teardown()
        stopWaitingForSoundServer()  // stopped: the next Play finds out afresh
        resumeWhenBack = false
        await output.setPaused(false)
        state.position = PositionAnchor()
        set(.stopped)
    }

    private func teardown() async {
        generation += 1
        if let pipeline {
            self.pipeline = nil
            pipeline.producer.cancel()
            pipeline.consumer.cancel()
            await pipeline.producer.value
            await pipeline.consumer.value
        }
        await output.reset()
    }

    private func handle(_ event: OutputEvent) async {
        switch event {
        case .trackStarted(let entry, let info, let startFrame):
            let seconds = Double(startFrame) / Double(info.format.sampleRate)
            // The track it was already (after a seek, or again in a track loop): only the position is new.
            let again = entry.id == state.current?.id && state.currentInfo != nil
            if !again {
                let known = state.queue.entry(id: entry.id)?.metadata ?? entry.metadata
                state.queue.setCurrent(entry)
                state.queue.update(entry.id, metadata: known.filled(from: TrackMetadata(tags: info.tags, duration: info.duration)))
                state.artwork = nil
                var decoded = info
                decoded.tags = TrackTags()
                state.currentInfo = decoded
                logger.info("now playing", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)",
                                                       "codec": "\(info.codec.rawValue)", "format": "\(info.format)"])
            }
            // A new play: another track, or this one again from its very start (a loop, Previous).
            let newPlay = !again || startFrame == 0
            if newPlay {
                reportedHeard.remove(entry.id)
                listening = Listening(entry: entry.id, from: seconds)
                Task { [loader] in await loader.played(entry.location, heard: false) }
            } else if listening?.entry == entry.id {
                listening?.jump(to: seconds)
            }
            state.position = PositionAnchor(seconds: seconds, moving: state.status == .playing)
            publish(.trackStarted(state.current ?? entry, state.currentInfo ?? info, seconds: seconds))
            if newPlay, let started = listening?.startedAt { publish(.listenStarted(state.current ?? entry, at: started)) }
            guard !again else { return }
            // A new track that does not start at its start (where a long one was left): clients
            // that follow the position are told it jumped.
            if seconds > 0 { publish(.seeked(seconds: seconds)) }
            if let following = state.queue.entry(after: entry.id, automatically: true) {
                Task { [loader] in await loader.prefetch(following.location) }
            }
            guard let art = info.tags.artwork else {
                // None in the file: the source may keep one (fetched without holding up the player).
                Task { [loader, mailbox] in
                    if let file = await loader.sourceArtwork(of: entry.location) { mailbox.yield(.sourceArtwork(entry, file)) }
                }
                return
            }
            do {
                let file = try await loader.storeArtwork(art)
                guard state.current?.id == entry.id else { return }
                state.artwork = file
                publish(.artworkReady(entry, file))
            } catch {
                logger.notice("cover art not stored", metadata: ["track": "\(entry.displayName)", "reason": "\(error)"])
            }
        case .trackEnded(let entry, let seconds):
            noteProgress(of: entry.id, at: .infinity, ended: true)
            noteHeard(entry, at: seconds)
            publish(.trackEnded(entry))
            if state.stopsAfterCurrent, entry.id == state.current?.id { await stopAfter(entry) }
        case .trackRejected(let entry, let error):
            publish(.trackFailed(entry, error))
        case .finished:
            await stopPipeline()
            publish(.queueFinished)
        case .failed(OutputError.serverLost(let reason)):
            await holdForSoundServer(OutputError.serverLost(reason))
        case .failed(let error):
            await stopPipeline()  // also stops the decoder, which the output no longer drains
            publish(.outputFailed(error))
        }
    }

    /// The sound server went away (restarted, crashed): keep the entry and the position, show
    /// Paused, and try to reach it again once a second; playing goes
    /// on from here by itself when it is back if it was playing. What the server had buffered
    /// (up to `PulseOutput.bufferSeconds`) was lost with it and is played again.
    private func holdForSoundServer(_ error: OutputError) async {
        resumeWhenBack = resumeWhenBack || state.status == .playing
        let seconds = state.position.seconds(at: .now)
        await teardown()
        await output.setPaused(true)
        state.position = PositionAnchor(seconds: seconds)
        set(.paused)
        guard soundServerWait == nil else { return }
        logger.warning("sound server lost; playback is held until it is back", metadata: ["reason": "\(error)"])
        publish(.outputLost(error))
        soundServerWait = Task { [output, mailbox] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.soundServerRetryEvery)
                if Task.isCancelled { return }
                if (try? await output.reconnect()) != nil {
                    mailbox.yield(.soundServerBack)
                    return
                }
            }
        }
    }

    private func soundServerReturned() async {
        guard soundServerWait != nil else { return }
        soundServerWait = nil
        logger.notice("sound server is back")
        publish(.outputReturned)
        guard resumeWhenBack, state.status == .paused, state.current != nil else { return }
        resumeWhenBack = false
        await execute(.play)
    }

    private func stopWaitingForSoundServer() {
        soundServerWait?.cancel()
        soundServerWait = nil
    }

    private func set(_ newStatus: PlaybackStatus) {
        guard newStatus != state.status else { return }
        state.status = newStatus
        if newStatus == .playing, positionClock == nil {
            positionClock = Task { [mailbox] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.positionCheckEvery)
                    mailbox.yield(.checkPosition)
                }
            }
        } else if newStatus != .playing {
            positionClock?.cancel()
            positionClock = nil
        }
        publish(.statusChanged(newStatus))
    }

    /// Takes the output's word for where playback is when the position clients interpolate has
    /// drifted from it (a new stream that the sound server starts only once it has buffered, a
    /// wait for bytes, a clock of its own); `announce`: publish the correction.
    private func checkPosition(announce: Bool) async {
        guard state.status == .playing, state.position.moving, let heard = await output.position(),
              heard.entry.id == state.current?.id else { return }
        noteHeard(heard.entry, at: heard.seconds)
        guard abs(heard.seconds - state.position.seconds(at: .now)) > Self.positionTolerance else { return }
        state.position = PositionAnchor(seconds: heard.seconds, moving: true)
        if announce { publish(.positionCorrected(seconds: heard.seconds)) }
    }

    /// Playback of `entry` is at `seconds`: what was heard of this play counts up, and once it is
    /// half of the track, or four minutes, the play is a listen.
    private func noteHeard(_ entry: QueueEntry, at seconds: Double) {
        guard var play = listening, play.entry == entry.id else { return }
        let duration = (state.queue.entry(id: entry.id) ?? entry).metadata.duration ?? .infinity
        play.advance(to: min(seconds, duration))
        listening = play
        guard play.heard >= min(duration / 2, Self.heardAfter) else { return }
        reportHeard(entry, startedAt: play.startedAt)
    }

    /// Counts what was heard of the current track up to now, before playback pauses, stops or
    /// moves elsewhere.
    private func noteHeardSoFar() {
        guard state.status != .stopped, let current = state.current else { return }
        noteHeard(current, at: state.seconds())
    }

    /// Tells the track's source it has been heard, once for this start of it (without waiting),
    /// and the listeners: a scrobbler counts a listen.
    private func reportHeard(_ entry: QueueEntry, startedAt: Date) {
        guard reportedHeard.insert(entry.id).inserted else { return }
        Task { [loader] in await loader.played(entry.location, heard: true) }
        publish(.listened(state.queue.entry(id: entry.id) ?? entry, startedAt: startedAt))
    }
}
