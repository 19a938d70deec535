import AsyncAlgorithms

/// Decodes tracks into the bounded PCM channel.
///
/// The C decoders read through callbacks that block until the `ByteSource` has the bytes, so this
/// actor runs on a thread of its own, never on the cooperative pool. Sending into the channel
/// suspends while the output is full: that is the back-pressure that keeps memory flat.
public actor DecoderActor {
    /// Frames per PCM packet: about 0.19 s at 44.1 kHz — few hand-offs, quick to react to a seek.
    public static let chunkFrames = 8192

    private let executor = ThreadExecutor(name: "decoder")

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    public init() {}

    deinit {
        executor.shutdown()
    }

    /// Decodes `entry` from `start` seconds into `packets`, framed by `.trackStart` and `.trackEnd`,
    /// and returns at its end or when the task is cancelled. An error after the track started still
    /// ends it in the channel, then propagates.
    public func decode(_ entry: QueueEntry, from source: any ByteSource, startingAt start: Double,
                       into packets: AsyncChannel<PCMPacket>) async throws {
        let decoder = try Self.open(source)
        let startFrame = decoder.info.frame(at: start)
        if startFrame > 0 {
            if let total = decoder.info.totalFrames, startFrame >= total {
                try decoder.seek(toFrame: total)
            } else {
                try decoder.seek(toFrame: startFrame)
            }
        }
        await packets.send(.trackStart(entry, decoder.info, startFrame: decoder.position))
        do {
            while !Task.isCancelled {
                let samples = try decoder.read(maxFrames: Self.chunkFrames)
                if samples.isEmpty { break }
                await packets.send(.samples(samples))
            }
        } catch {
            await packets.send(.trackEnd(entry))
            throw error
        }
        await packets.send(.trackEnd(entry))
    }

    private static func open(_ source: any ByteSource) throws -> any AudioDecoder {
        switch try FormatSniffer.sniff(source) {
        case .mp3(let exactLength): try MP3Decoder(source: source, exactLength: exactLength)
        case .opus: try OpusDecoder(source: source)
        }
    }
}
