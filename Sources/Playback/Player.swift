import Base
import Decoding
import Foundation
import Library
import Loader
import Logging
import Model
import Output
import Synchronization

/// The playback state machine: the one place that talks to all four actors.
///
/// Every jump — play from stopped, seek, next, previous — is the same mechanism: tear down the
/// pipeline (loader → decoder → bounded queue → output) and build a new one at the new place. Pause is
/// the output's. Commands, and the pipeline's own reports, arrive on one `AsyncStream` and are
/// handled strictly one after another: a burst of media-key presses can never interleave two
/// teardowns, and a track ending can never land in the middle of a pause.
package actor Player {
    private struct Pipeline {
        let producer: Task<Void, Never>
        let consumer: Task<Void, Never>
    }

    /// What the player's mailbox carries: requests from outside, reports from its pipeline.
    private enum Message: Sendable {
        case command(PlayerCommand, CheckedContinuation<Void, Never>?)
        case output(OutputEvent, generation: Int)
        case trackFailed(QueueEntry, any Error, generation: Int)
    }

    /// PCM packets decoded ahead of the output: up to about 3 s at 44.1 kHz, 512 KiB.
    private static let queuedPackets = 4

    package nonisolated let library: LibraryActor
    private let loader: LoaderActor
    private let decoder: DecoderActor
    private let output: OutputActor
    private let logger = Logger(label: "cloudplayerd.player")

    /// Everything that happens goes to every subscriber (the CLI, the bus).
    private let subscribers = Locked<[UInt64: AsyncStream<PlayerEvent>.Continuation]>([:])
    private let nextSubscriber = Atomic<UInt64>(0)
    private let mailbox: AsyncStream<Message>.Continuation

    package private(set) var status: PlaybackStatus = .stopped
    /// The entry being heard (or about to be): what next, previous and seek act on.
    package private(set) var current: QueueEntry?
    package private(set) var currentInfo: TrackInfo?
    package private(set) var volume = 1.0
    private var pipeline: Pipeline?
    /// Where a new pipeline starts, until the output plays its first frame: a seek's target is
    /// the position at once, not only once audio arrives.
    private var pendingStart: PlaybackPosition?
    /// Bumped by every teardown, so events from an old pipeline are recognised and ignored.
    private var generation = 0

    package init(library: LibraryActor = LibraryActor(), loader: LoaderActor = LoaderActor(),
                decoder: DecoderActor = DecoderActor(), output: OutputActor) {
        self.library = library
        self.loader = loader
        self.decoder = decoder
        self.output = output
        let (messages, mailbox) = AsyncStream.makeStream(of: Message.self)
        self.mailbox = mailbox
        Task { await self.run(messages) }
    }

    // MARK: Asking

    /// A new stream of everything that happens from now on; it finishes after `shutdown()`.
    package nonisolated func subscribe() -> AsyncStream<PlayerEvent> {
        let (stream, sink) = AsyncStream.makeStream(of: PlayerEvent.self)
        let id = nextSubscriber.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = sink }
        sink.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    private nonisolated func unsubscribe(_ id: UInt64) {
        subscribers.withLock { _ = $0.removeValue(forKey: id) }
    }

    private nonisolated func publish(_ event: PlayerEvent) {
        for sink in subscribers.withLock({ Array($0.values) }) { sink.yield(event) }
    }

    /// Queues a command without waiting for it.
    package nonisolated func send(_ command: PlayerCommand) {
        mailbox.yield(.command(command, nil))
    }

    /// Runs a command and returns once it has been carried out.
    package nonisolated func perform(_ command: PlayerCommand) async {
        await withCheckedContinuation { done in
            if case .terminated = mailbox.yield(.command(command, done)) { done.resume() }
        }
    }

    /// Adds locations to the queue (without playing them) and returns their entries.
    package func enqueue(_ urls: [URL], at placement: LibraryActor.Placement = .end) async -> [QueueEntry] {
        let added = await library.enqueue(urls, at: placement)
        publish(.queueChanged(await library.entries))
        return added
    }

    /// Replaces the whole queue (a playlist activated); plays its first track if asked.
    package func replaceQueue(with urls: [URL], play: Bool) async {
        await perform(.stop)
        await library.clear()
        current = nil
        currentInfo = nil
        publish(.currentChanged(nil))
        let added = await enqueue(urls)
        if play, let first = await library.first ?? added.first { await playNow(first.id) }
    }

    /// Plays an entry from its start, also when paused: what OpenUri, `queue play` and an
    /// activated playlist ask for (PlayEntry alone keeps a pause, as Next and GoTo do).
    package func playNow(_ id: QueueEntry.ID) async {
        await perform(.playEntry(id, at: 0))
        await perform(.play)
    }

    /// Whether a location can be played: its codec, or the error that playing it would meet.
    package func probe(_ url: URL) async throws -> AudioCodec {
        let source = try await loader.open(url)
        return try await decoder.probe(source)
    }

    /// What the listener hears now; nil when stopped.
    package func position() async -> PlaybackPosition? {
        guard status != .stopped else { return nil }
        if let pendingStart { return pendingStart }
        return await output.position()
    }

    /// Stops playback, ends the event stream and refuses further commands.
    package func shutdown() async {
        await perform(.stop)
        await loader.shutdown()
        mailbox.finish()
        for sink in subscribers.withLock({ Array($0.values) }) { sink.finish() }
    }

    // MARK: Carrying out

    private func run(_ messages: AsyncStream<Message>) async {
        for await message in messages {
            switch message {
            case .command(let command, let done):
                logger.debug("command", metadata: ["command": "\(command)", "status": "\(status.rawValue)"])
                await execute(command)
                done?.resume()
            case .output(let event, let generation):
                guard generation == self.generation else { continue }
                await handle(event)
            case .trackFailed(let entry, let error, let generation):
                guard generation == self.generation else { continue }
                logger.info("track failed", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)", "reason": "\(error)"])
                publish(.trackFailed(entry, error))
            }
        }
    }

    private func execute(_ command: PlayerCommand) async {
        switch command {
        case .play:
            switch status {
            case .playing: break
            case .paused:
                await output.setPaused(false)
                set(.playing)
            case .stopped:
                if let entry = await startingEntry() { await start(entry, at: 0) }
            }
        case .pause:
            guard status == .playing else { return }
            await output.setPaused(true)
            set(.paused)
        case .playPause:
            await execute(status == .playing ? .pause : .play)
        case .stop:
            await teardown()
            await output.setPaused(false)
            set(.stopped)
        case .next:
            guard let current else { return }
            if let following = await library.entry(after: current.id) {
                await move(to: following)
            } else {
                await execute(.stop)
            }
        case .previous:
            guard let current else { return }
            await move(to: await library.entry(before: current.id) ?? current)
        case .seek(to: let seconds):
            guard status != .stopped, seconds.isFinite, let current else { return }
            let target = max(0, seconds)
            if let duration = currentInfo?.duration, target >= duration {
                await execute(.next)
                return
            }
            await start(current, at: target)
            publish(.seeked(seconds: target))
        case .skip(by: let offset):
            guard offset.isFinite, let now = await position() else { return }
            await execute(.seek(to: now.seconds + offset))
        case .playEntry(let id, let seconds):
            guard seconds.isFinite, let entry = await library.entry(id: id) else { return }
            await start(entry, at: seconds)
        case .cue(let id, let seconds):
            guard seconds.isFinite, let entry = await library.entry(id: id) else { return }
            if status == .playing {
                await output.setPaused(true)
                set(.paused)
            }
            await start(entry, at: max(0, seconds), paused: true)
        case .remove(let id):
            let following = await library.entry(after: id)
            guard await library.remove(id) else { return }
            publish(.queueChanged(await library.entries))
            guard id == current?.id else { return }
            if let following, following.id != id {
                await move(to: following)
            } else {
                await execute(.stop)
                current = nil
                currentInfo = nil
                publish(.currentChanged(nil))
            }
        case .setVolume(let level):
            guard level.isFinite else { return }
            volume = max(0, level)
            await output.setVolume(volume)
            publish(.volumeChanged(volume))
        case .setLoop(let mode):
            await library.setLoop(mode)
            publish(.loopChanged(mode))
        case .setShuffle(let on):
            await library.setShuffle(on, current: current?.id)
            publish(.shuffleChanged(on))
        }
    }

    /// Next and previous: playing or paused, the new track starts (paused stays paused);
    /// stopped, it only becomes the current track, as MPRIS asks.
    private func move(to entry: QueueEntry) async {
        if status == .stopped {
            current = entry
            currentInfo = nil
            publish(.currentChanged(entry))
        } else {
            await start(entry, at: 0)
        }
    }

    private func startingEntry() async -> QueueEntry? {
        if let current, let stillQueued = await library.entry(id: current.id) { return stillQueued }
        return await library.first
    }

    /// Builds a pipeline that plays from `entry` at `seconds` on through the queue.
    /// A paused player stays paused (the output keeps its pause across streams); a stopped one
    /// starts paused when asked (`cue`).
    private func start(_ entry: QueueEntry, at seconds: Double, paused: Bool = false) async {
        await teardown()
        if status == .stopped { await output.setPaused(paused) }
        let generation = self.generation
        if entry != current { currentInfo = nil }
        current = entry
        pendingStart = PlaybackPosition(entry: entry, seconds: seconds)
        logger.debug("pipeline starts", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)", "seconds": "\(seconds)"])
        let packets = BoundedQueue<PCMPacket>(capacity: Self.queuedPackets)
        let announce: @Sendable (PlayerEvent) -> Void = { [weak self] in self?.publish($0) }
        let producer = Task.detached { [library, loader, decoder, mailbox] in
            var next: QueueEntry? = entry
            var start = seconds
            // A queue where every track fails (a server gone, with a loop on) stops after one
            // round instead of asking again forever.
            var failuresInARow = 0
            while let item = next, !Task.isCancelled {
                do {
                    let source = try await loader.open(item.url) { announce(.buffering(item, $0)) }
                    // A seek or skip must reach a decoder that waits for the network, on its thread.
                    try await withTaskCancellationHandler {
                        try await decoder.decode(item, from: source, startingAt: start, into: packets)
                    } onCancel: {
                        source.cancel()
                    }
                    failuresInARow = 0
                } catch {
                    if Task.isCancelled { break }
                    mailbox.yield(.trackFailed(item, error, generation: generation))
                    failuresInARow += 1
                    if failuresInARow >= max(1, await library.entries.count) { break }
                }
                start = 0
                next = await library.entry(after: item.id, automatically: true)
            }
            packets.finish()
        }
        let consumer = Task.detached { [output, mailbox] in
            await output.play(packets) { mailbox.yield(.output($0, generation: generation)) }
        }
        pipeline = Pipeline(producer: producer, consumer: consumer)
        if status == .stopped { set(paused ? .paused : .playing) }
    }

    private func teardown() async {
        generation += 1
        pendingStart = nil
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
            current = entry
            currentInfo = info
            pendingStart = nil
            logger.info("now playing", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)",
                                                   "codec": "\(info.codec.rawValue)", "format": "\(info.format)"])
            publish(.trackStarted(entry, info, seconds: Double(startFrame) / Double(info.format.sampleRate)))
            if let following = await library.entry(after: entry.id, automatically: true) {
                Task { [loader] in await loader.prefetch(following.url) }
            }
            if let art = info.tags.artwork {
                do {
                    publish(.artworkReady(entry, try await loader.storeArtwork(art)))
                } catch {
                    logger.notice("cover art not stored", metadata: ["track": "\(entry.displayName)", "reason": "\(error)"])
                }
            }
        case .trackEnded(let entry):
            publish(.trackEnded(entry))
        case .trackRejected(let entry, let error):
            publish(.trackFailed(entry, error))
        case .finished:
            await teardown()
            await output.setPaused(false)
            set(.stopped)
            publish(.queueFinished)
        case .failed(let error):
            await teardown()  // also stops the decoder, which the output no longer drains
            await output.setPaused(false)
            set(.stopped)
            publish(.outputFailed(error))
        }
    }

    private func set(_ newStatus: PlaybackStatus) {
        guard newStatus != status else { return }
        status = newStatus
        publish(.statusChanged(newStatus))
    }
}
