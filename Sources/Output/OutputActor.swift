import Base
import Logging
import Model

/// Feeds the PCM queue into one `AudioOutput` and keeps the timeline of what is heard.
///
/// Track boundaries are marked in the output stream's frames as they are written; the device's
/// played-frame count then says which track, and which frame of it, the listener hears. So the
/// position and the "track started" moment come from the output, not from the decoder running
/// ahead. Consecutive tracks of one format share a stream (gapless); a format change drains the
/// stream and opens a new one.
package actor OutputActor {
    private let logger = Logger(label: "cloudplayerd.output")
    private enum Mark {
        case start(QueueEntry, TrackInfo, startFrame: Int64)
        case end(QueueEntry)
        case tags(QueueEntry, TrackTags)
    }

    /// Frames per device write (about 0.09 s at 44.1 kHz).
    private static let sliceFrames = 4096

    package let device: any AudioOutput
    private var format: PCMFormat?
    /// Frames written into the device's current stream.
    private var streamFrames: Int64 = 0
    /// Boundaries not yet heard, in stream frames, oldest first.
    private var pending: [(frame: Int64, mark: Mark)] = []
    /// The track being heard and the stream frame its `startFrame` fell on.
    private var audible: (entry: QueueEntry, info: TrackInfo, startFrame: Int64, streamFrame: Int64)?
    /// Where boundary events go while a pipeline plays.
    private var report: (@Sendable (OutputEvent) -> Void)?
    /// Bumped whenever the stream is replaced, so a played-frame count read before an `await`
    /// is not applied to the stream that replaced it.
    private var streamEpoch = 0

    package init(device: any AudioOutput) {
        self.device = device
    }

    /// Plays packets until the queue finishes, then drains and reports `.finished`.
    /// Returns early, quietly, when the task is cancelled. However it returns, it closes the
    /// queue, so a decoder never waits on an output that has stopped reading.
    package func play(_ packets: BoundedQueue<PCMPacket>, report: @escaping @Sendable (OutputEvent) -> Void) async {
        self.report = report
        defer { packets.finish() }
        var rejected: QueueEntry?
        do {
            while let packet = await packets.next() {
                try Task.checkCancellation()
                switch packet {
                case .trackStart(let entry, let info, let startFrame):
                    rejected = nil
                    do {
                        try await open(info.format)
                    } catch let error as OutputError {
                        guard case .unsupportedFormat = error else { throw error }
                        rejected = entry
                        report(.trackRejected(entry, error))
                        continue
                    }
                    pending.append((streamFrames, .start(entry, info, startFrame: startFrame)))
                    // On a fresh stream the track is "heard" from its first frame on at once —
                    // also while paused, so a Next or a seek while paused is reported now.
                    await advance()
                case .samples(let samples):
                    guard rejected == nil, let format else { continue }
                    try await write(samples, format: format)
                case .streamTags(let entry, let tags):
                    guard rejected == nil else { continue }
                    pending.append((streamFrames, .tags(entry, tags)))
                case .trackEnd(let entry):
                    guard rejected == nil else { continue }
                    pending.append((streamFrames, .end(entry)))
                }
            }
            try Task.checkCancellation()
            try await device.drain()
            advance(to: streamFrames)
            report(.finished)
        } catch is CancellationError {
            return
        } catch {
            if !Task.isCancelled { report(.failed(error)) }
        }
    }

    /// What is being heard now, or nil when nothing is.
    package func position() async -> PlaybackPosition? {
        let epoch = streamEpoch
        let played = await device.playedFrames()
        if epoch == streamEpoch { advance(to: min(played, streamFrames)) }
        guard let audible else { return nil }
        var frame = audible.startFrame + max(0, min(played, streamFrames) - audible.streamFrame)
        if let total = audible.info.totalFrames { frame = min(frame, total) }
        return PlaybackPosition(entry: audible.entry, seconds: Double(frame) / Double(audible.info.format.sampleRate))
    }

    /// Drops the stream and the timeline: what was written but not heard is gone.
    package func reset() async {
        streamEpoch += 1
        await device.stop()
        format = nil
        streamFrames = 0
        pending.removeAll()
        audible = nil
        report = nil
    }

    package func setPaused(_ paused: Bool) async {
        await device.setPaused(paused)
    }

    package func setVolume(_ volume: Double) async {
        await device.setVolume(volume)
    }

    /// One attempt to get the device's sound server back (`AudioOutput.reconnect`).
    package func reconnect() async throws {
        try await device.reconnect()
    }

    private func open(_ newFormat: PCMFormat) async throws {
        guard newFormat != format else { return }
        if format != nil {
            try await device.drain()
            advance(to: streamFrames)
        }
        logger.debug("stream opens", metadata: ["format": "\(newFormat)", "previous": "\(format.map(\.description) ?? "none")"])
        streamEpoch += 1
        try await device.start(format: newFormat)
        format = newFormat
        streamFrames = 0
    }

    /// Writes a packet in slices, moving the timeline after each, so track changes are reported
    /// within a slice of when they are heard however large the decoder's packets.
    private func write(_ samples: PCMSamples, format: PCMFormat) async throws {
        let slice = Self.sliceFrames * format.channels
        var start = 0
        while start < samples.count {
            let end = min(start + slice, samples.count)
            try await device.write(samples.slice(start..<end))
            streamFrames += Int64((end - start) / format.channels)
            start = end
            await advance()
        }
    }

    private func advance() async {
        let epoch = streamEpoch
        let played = await device.playedFrames()
        if epoch == streamEpoch { advance(to: min(played, streamFrames)) }
    }

    /// Moves the timeline to `played`, reporting the boundaries passed.
    private func advance(to played: Int64) {
        while let first = pending.first, first.frame <= played {
            pending.removeFirst()
            switch first.mark {
            case .start(let entry, let info, let startFrame):
                audible = (entry, info, startFrame, first.frame)
                report?(.trackStarted(entry, info, startFrame: startFrame))
            case .end(let entry):
                var seconds = 0.0
                if let audible, audible.entry.id == entry.id {
                    seconds = Double(audible.startFrame + first.frame - audible.streamFrame) / Double(audible.info.format.sampleRate)
                }
                report?(.trackEnded(entry, seconds: seconds))
            case .tags(let entry, let tags):
                report?(.streamTagsHeard(entry, tags))
            }
        }
    }
}
