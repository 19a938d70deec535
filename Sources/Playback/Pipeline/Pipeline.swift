import Base
import Decoding
import Loader
import Model
import Output

/// One run of audio: loader → decoder → bounded PCM queue → output, from a first step on through
/// what the plan says follows, until the plan says stop, the queue ends, or it is stopped.
///
/// It holds no reference to the player. It learns what follows from the `PlayPlan` the player
/// hands it (and replaces whenever the queue or settings change), and it tells what happens
/// through `report` — so the decoder side never waits on the player's mailbox, which may itself
/// be waiting for this pipeline to stop. Every jump (a seek, Next, play from stopped) is a new
/// pipeline; pause belongs to the output.
package final class Pipeline: Sendable {
    /// PCM packets decoded ahead of the output: up to about 3 s at 44.1 kHz, 512 KiB.
    static let queuedPackets = 4

    private let plan: Locked<PlayPlan>
    private let producer: Task<Void, Never>
    private let consumer: Task<Void, Never>

    private init(plan: Locked<PlayPlan>, producer: Task<Void, Never>, consumer: Task<Void, Never>) {
        self.plan = plan
        self.producer = producer
        self.consumer = consumer
    }

    /// Starts decoding `first` and playing what it decodes.
    package static func start(_ first: PlayStep, plan: PlayPlan, loader: LoaderActor, decoder: DecoderActor,
                              output: OutputActor, report: @escaping @Sendable (PipelineEvent) -> Void) -> Pipeline {
        let plan = Locked(plan)
        let packets = BoundedQueue<PCMPacket>(capacity: queuedPackets)
        let producer = Task.detached {
            await produce(from: first, plan: plan, loader: loader, decoder: decoder, into: packets, report: report)
        }
        let consumer = Task.detached {
            await output.play(packets) { report(.output($0)) }
        }
        return Pipeline(plan: plan, producer: producer, consumer: consumer)
    }

    /// What follows from now on: the queue, settings or stop-after changed.
    package func follow(_ newPlan: PlayPlan) {
        plan.withLock { $0 = newPlan }
    }

    /// Stops decoding and playing, and returns once both ends have let go. A decoder blocked on
    /// the network is released by its source's cancellation.
    package func stop() async {
        producer.cancel()
        consumer.cancel()
        await producer.value
        await consumer.value
    }

    private static func produce(from first: PlayStep, plan: Locked<PlayPlan>, loader: LoaderActor, decoder: DecoderActor,
                                into packets: BoundedQueue<PCMPacket>, report: @escaping @Sendable (PipelineEvent) -> Void) async {
        var next: PlayStep? = first
        // A queue where every track fails (a server gone, with a loop on) stops after one round
        // instead of trying again for ever.
        var failuresInARow = 0
        while let step = next, !Task.isCancelled {
            do {
                try await play(step, loader: loader, decoder: decoder, into: packets, report: report)
                failuresInARow = 0
            } catch {
                if Task.isCancelled { break }
                report(.trackFailed(step.entry, error))
                failuresInARow += 1
                if failuresInARow >= max(1, plan.withLock { $0.length }) { break }
            }
            // Stop-after set later, once the next track is under way, is caught by the player
            // when this one's last frame is heard.
            next = plan.withLock { $0.step(after: step.entry.id) }
        }
        packets.finish()
    }

    private static func play(_ step: PlayStep, loader: LoaderActor, decoder: DecoderActor, into packets: BoundedQueue<PCMPacket>,
                             report: @escaping @Sendable (PipelineEvent) -> Void) async throws {
        let entry = step.entry
        // A seek, or the track again, is not a start: it waits for its bytes as it plays.
        let source = try await loader.open(entry.location, starting: step.readingTags) { report(.buffering(entry, $0)) }
        // Each track at its own pace; the output changes it where this track starts.
        guard await packets.send(.pace(step.pace)) else { return }
        // A seek or a skip must reach a decoder that waits for the network, on its own thread.
        try await withTaskCancellationHandler {
            try await decoder.decode(entry, from: source, startingAt: step.start, readingTags: step.readingTags,
                                     loudness: step.loudness, inAlbumRun: step.inAlbumRun, into: packets)
        } onCancel: {
            source.cancel()
        }
    }
}
