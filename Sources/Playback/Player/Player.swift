import Base
import Decoding
import FoundationEssentials
import Loader
import Logging
import Model
import Output
import ServiceLifecycle

/// The player: a mailbox, the state, and the snapshots it publishes.
///
/// Commands, and the reports of its pipeline, arrive on one `AsyncStream` and are handled
/// strictly one after another: a burst of media-key presses can never interleave two jumps, a
/// track ending can never land in the middle of a pause, and the state (`PlayerSnapshot`, the
/// queue in it) changes nowhere else. Every change is published with the whole new state.
///
/// Every jump — play from stopped, seek, next, previous — stops the `Pipeline` and starts a new
/// one at the new place with a `PlayStep`; what follows a track that ends by itself the pipeline
/// reads from the `PlayPlan` it is handed, never by asking back. Pause is the output's.
///
/// A `Service`: `run()` handles the mailbox until a graceful shutdown (or `shutdown()`), which
/// stops playback and ends the event streams. Whoever made the loader, decoder and output owns
/// them; the player only uses them.
package actor Player {
    /// What the player's mailbox carries: requests from outside, reports from its pipeline.
    enum Message: Sendable {
        case command(PlayerCommand, CheckedContinuation<PlayerSnapshot, Never>?)
        case pipeline(PipelineEvent, generation: Int)
        /// Time to compare the position clients interpolate with what the output has played.
        case checkPosition
        /// The next chapter of the track should be heard by now.
        case checkChapter
        /// The sound server answers again and has a sink (`OutputActor.reconnect`).
        case soundServerBack
        /// Cover art the track's source keeps apart from the file, now in a local file.
        case sourceArtwork(QueueEntry, URL)
        /// Chapters a feed keeps apart from the episode (`TrackMetadata.chaptersURL`), now read.
        case sourceChapters(QueueEntry, [Chapter])
        /// The picture of chapter `index` of the entry, now in a local file.
        case chapterArtwork(QueueEntry.ID, index: Int, URL)
        /// How much of a queued track the cache holds changed (`LoaderActor.followCacheStates`).
        case cacheState(CacheStateChange)
        /// Stop playing, end the event streams, refuse further commands.
        case shutdown(CheckedContinuation<Void, Never>?)
    }

    let loader: LoaderActor
    let decoder: DecoderActor
    let output: OutputActor
    let logger = Logger(label: "cloudplayerd.player")

    /// The listeners, and the last event published: a new listener starts from its state.
    private let listeners = Broadcast<PlayerEvent>()
    let mailbox: AsyncStream<Message>.Continuation
    private let messages: AsyncStream<Message>

    /// The state; changed only while a message is handled.
    var state = PlayerSnapshot()
    /// `[playback]`: ReplayGain, and which tracks resume where they were left.
    var settings: PlaybackSettings
    var pipeline: Pipeline?
    /// Bumped by every teardown, so reports from an old pipeline are recognised and ignored.
    var generation = 0
    /// Set once shut down: later commands are answered with the last state and not carried out.
    private var isShutDown = false
    /// What has been heard of the current play, and whether it is a listen yet.
    var listens = ListenCounter()
    /// While playing: asks now and then for the position to be checked against the output.
    var positionClock: Task<Void, Never>?
    /// While the sound server is away: the task that tries to reach it again.
    var soundServerWait: Task<Void, Never>?
    /// Whether playing goes on by itself when the sound server is back.
    var resumeWhenBack = false
    /// Waits for the sleep timer, then fades out and pauses.
    var sleepTask: Task<Void, Never>?
    /// While a track with chapters plays: wakes the player when the next chapter starts.
    var chapterClock: Task<Void, Never>?
    /// The chapter last announced, or jumped to: playing on from it into the next is noticed
    /// by the chapter clock even if another event put the next one in the state first.
    var chapterAnnounced: Int?
    /// When playback was last paused: a station paused longer than `liveResumeWithin` is taken
    /// up live again rather than from its buffer.
    var pausedAt: ContinuousClock.Instant?
    /// The speed the user chose for each source's tracks in this session (`setSpeed`), by
    /// `PlaybackSettings.speedKey`: above the config's, below a track's own.
    var chosenSpeeds: [String: Double] = [:]

    package init(loader: LoaderActor = LoaderActor(), decoder: DecoderActor = DecoderActor(), output: OutputActor, settings: PlaybackSettings = PlaybackSettings()) {
        self.loader = loader
        self.decoder = decoder
        self.output = output
        self.settings = settings
        state.replayGainMode = settings.loudness.mode
        (messages, mailbox) = AsyncStream.makeStream(of: Message.self)
    }

    // MARK: Asking

    /// A new stream of everything that happens from now on, starting with the state as it is
    /// (`.subscribed`); it finishes when the player shuts down.
    package nonisolated func subscribe() -> AsyncStream<PlayerEvent> {
        listeners.subscribe { last in PlayerEvent(change: .subscribed, snapshot: last?.snapshot ?? PlayerSnapshot()) }
    }

    func publish(_ change: PlayerEvent.Change) {
        let chapterBefore = state.chapter
        state.chapter = chapterHeard()
        switch change {
        case .currentChanged, .trackStarted:
            // Another track (or this one heard afresh): its chapter's picture, not the last one's.
            chapterAnnounced = state.chapter
            showChapterArtwork()
        case .seeked, .chapterChanged, .statusChanged(.stopped):
            chapterAnnounced = state.chapter
            if state.chapter != chapterBefore { showChapterArtwork() }
        default:
            if state.chapter != chapterBefore { showChapterArtwork() }
        }
        state.serial += 1
        // Only this actor publishes, so events go out in order; a listener that subscribes
        // meanwhile starts from the last one and so misses nothing.
        listeners.yield(PlayerEvent(change: change, snapshot: state))
        pipeline?.follow(plan)
        armChapterClock()
    }

    /// What the pipeline goes by when a track ends by itself, as the state is now: a sleep at the
    /// chapter's end still set when the track ends stops there (its end ends the last chapter).
    var plan: PlayPlan {
        var settings = settings
        settings.sourceSpeeds.merge(chosenSpeeds) { _, chosen in chosen }
        settings.loudness.mode = state.replayGainMode
        let stopping = state.stopsAfterCurrent || state.sleepsAtChapterEnd
        return PlayPlan(queue: state.queue, settings: settings, stopAfter: stopping ? state.current?.id : nil)
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
    /// For a station (nil) its answer is the check: its bytes come at its own pace, and one that
    /// trickles would hold the check — and the caller — for ever.
    package func probe(_ location: TrackLocation) async throws -> AudioCodec? {
        let source = try await loader.open(location)
        if source is any LiveByteSource {
            // Held for the play that follows: a station is connected to once.
            await loader.hold(source, for: location)
            return nil
        }
        return try await decoder.probe(source)
    }

    /// What the listener hears now, as the output counts it; nil when stopped.
    package func position() async -> PlaybackPosition? {
        guard state.status != .stopped, let current = state.current else { return nil }
        if !state.position.moving { return PlaybackPosition(entry: current, seconds: state.position.seconds) }
        return await output.position()
    }

    /// Stops playback, ends the event streams and refuses further commands; returns once done
    /// (at once if `run()` has already ended).
    package nonisolated func shutdown() async {
        await withCheckedContinuation { done in
            if case .terminated = mailbox.yield(.shutdown(done)) { done.resume() }
        }
    }

    // MARK: Running

    /// Handles the mailbox until the player is shut down; also follows how much of the queued
    /// tracks the cache holds.
    func handleMessages() async {
        let cacheStates = loader.cacheStateChanges()
        await withDiscardingTaskGroup { group in
            group.addTask { [mailbox] in
                for await change in cacheStates { mailbox.yield(.cacheState(change)) }
            }
            // After the shutdown the mailbox is finished: what is left in it is answered, not
            // carried out, and then the loop ends.
            for await message in messages {
                if isShutDown {
                    refuse(message)
                } else {
                    await handle(message)
                }
            }
            group.cancelAll()
        }
    }

    private func handle(_ message: Message) async {
        switch message {
        case .command(let command, let done):
            logger.debug("command", metadata: ["command": "\(command.logged)", "status": "\(state.status.rawValue)"])
            await execute(command)
            done?.resume(returning: state)
        case .pipeline(let event, let generation):
            guard generation == self.generation else { return }
            await handle(event)
        case .checkPosition:
            await checkPosition(announce: true)
        case .checkChapter:
            await noteChapter()
        case .soundServerBack:
            await soundServerReturned()
        case .sourceArtwork(let entry, let file):
            // Still its track, and none better came with the file itself.
            guard state.current?.id == entry.id, state.artwork == nil else { return }
            state.artwork = file
            publish(.artworkReady(entry, file))
        case .sourceChapters(let entry, let chapters):
            // Still its track, and the file had none of its own.
            guard state.current?.id == entry.id, var info = state.currentInfo, info.chapters.isEmpty else { return }
            info.chapters = .ordered(chapters, duration: info.duration)
            state.currentInfo = info
            let index = chapterHeard()
            publish(.chapterChanged(index.map { info.chapters[$0] }, index: index))
        case .chapterArtwork(let id, let index, let file):
            guard state.current?.id == id, state.chapter == index else { return }
            state.chapterArtwork = file
            publish(.chapterArtworkReady(file))
        case .cacheState(let change):
            let entries = state.queue.entries.filter { $0.location == change.location }
            guard !entries.isEmpty, state.cached[change.location] != change.state else { return }
            state.cached[change.location] = change.state
            publish(.cacheChanged(entries))
        case .shutdown(let done):
            await stopForGood()
            done?.resume()
        }
    }

    /// The end: the sleep timer off, playback stopped, every listener's stream ended, and the
    /// commands still in the mailbox answered without being carried out.
    private func stopForGood() async {
        guard !isShutDown else { return }
        await execute(.sleep(at: nil))
        await stopPipeline()
        isShutDown = true
        mailbox.finish()
        listeners.finish()
    }

    /// Answers a message that came after the shutdown, without carrying it out.
    private func refuse(_ message: Message) {
        switch message {
        case .command(_, let done): done?.resume(returning: state)
        case .shutdown(let done): done?.resume()
        default: break
        }
    }
}

extension Player: Service {
    /// Plays what it is asked until the group shuts down gracefully (SIGTERM, SIGINT, Quit).
    package nonisolated func run() async {
        await withGracefulShutdownHandler {
            await self.handleMessages()
        } onGracefulShutdown: { [mailbox] in
            mailbox.yield(.shutdown(nil))
        }
    }
}
