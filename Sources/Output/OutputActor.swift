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
///
/// A track's pace (`PCMPacket.pace`) may shorten its long silences (`SilenceTrimmer`) and change
/// its speed (`TimeStretcher`), in that order. The timeline then counts `speed` track frames for
/// each frame heard and adds the frames left out where they would have been, so positions stay in
/// track time; a boundary is marked where the stretcher will let it out, after what it holds.
package actor OutputActor {
    private let logger = Logger(label: "cloudplayerd.output")
    private enum Mark {
        case start(QueueEntry, TrackInfo, startFrame: Int64, speed: Double)
        case end(QueueEntry)
        case tags(QueueEntry, TrackTags)
        /// Frames of the track left out here (silence).
        case skipped(Int64)
    }

    /// Frames per device write (about 0.09 s at 44.1 kHz).
    private static let sliceFrames = 4096

    package let device: any AudioOutput
    private var format: PCMFormat?
    /// Frames written into the device's current stream.
    private var streamFrames: Int64 = 0
    /// Boundaries not yet heard, in stream frames, oldest first.
    private var pending: [(frame: Int64, mark: Mark)] = []
    /// The track being heard, the stream frame its `startFrame` fell on, and its speed.
    private var audible: (entry: QueueEntry, info: TrackInfo, startFrame: Int64, streamFrame: Int64, speed: Double)?
    /// The speed what is written now plays at, and the stretcher that makes it (none at 1: the
    /// samples go out as they are).
    private var speed = 1.0
    private var stretcher: TimeStretcher?
    /// Whether long silences are shortened now, and what shortens them.
    private var skipsSilence = false
    private var trimmer: SilenceTrimmer?
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
                    // A station is heard as it is sent: never faster, nothing left out.
                    if info.isLive { try await change(.natural) }
                    preparePace()
                    pending.append((markFrame, .start(entry, info, startFrame: startFrame, speed: speed)))
                    // On a fresh stream the track is "heard" from its first frame on at once —
                    // also while paused, so a Next or a seek while paused is reported now.
                    await advance()
                case .samples(let samples):
                    guard rejected == nil, let format else { continue }
                    try await write(samples, format: format)
                case .streamTags(let entry, let tags):
                    guard rejected == nil else { continue }
                    pending.append((markFrame, .tags(entry, tags)))
                case .trackEnd(let entry):
                    guard rejected == nil else { continue }
                    try await flushTrimmer()
                    pending.append((markFrame, .end(entry)))
                case .pace(let pace):
                    try await change(pace)
                }
            }
            try Task.checkCancellation()
            try await flushTrimmer()
            try await flushStretcher()
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
        var frame = audible.startFrame + Self.trackFrames(max(0, min(played, streamFrames) - audible.streamFrame), at: audible.speed)
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
        speed = 1
        stretcher = nil
        skipsSilence = false
        trimmer = nil
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
            try await flushTrimmer()
            try await flushStretcher()
            try await device.drain()
            advance(to: streamFrames)
        }
        logger.debug("stream opens", metadata: ["format": "\(newFormat)", "previous": "\(format.map(\.description) ?? "none")"])
        streamEpoch += 1
        try await device.start(format: newFormat)
        format = newFormat
        streamFrames = 0
    }

    /// Writes a packet, through the trimmer and the stretcher where there are.
    private func write(_ samples: PCMSamples, format: PCMFormat) async throws {
        guard let trimmer else { return try await stretch(samples, format: format) }
        try await play(trimmer.process(samples), format: format)
    }

    /// What the trimmer let through, and where it left frames out.
    private func play(_ pieces: [SilenceTrimmer.Piece], format: PCMFormat) async throws {
        for piece in pieces {
            switch piece {
            case .keep(let samples):
                try await stretch(samples, format: format)
            case .skip(let frames):
                if let last = pending.last, last.frame == markFrame, case .skipped(let before) = last.mark {
                    pending[pending.count - 1].mark = .skipped(before + frames)
                } else {
                    pending.append((markFrame, .skipped(frames)))
                }
            }
        }
    }

    /// Writes samples, through the stretcher if there is one.
    private func stretch(_ samples: PCMSamples, format: PCMFormat) async throws {
        if let stretcher {
            try await writeOut(stretcher.process(samples), format: format)
        } else {
            try await writeOut(samples, format: format)
        }
    }

    /// Writes samples in slices, moving the timeline after each, so track changes are reported
    /// within a slice of when they are heard however large the decoder's packets.
    private func writeOut(_ samples: PCMSamples, format: PCMFormat) async throws {
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
            case .start(let entry, let info, let startFrame, let speed):
                audible = (entry, info, startFrame, first.frame, speed)
                report?(.trackStarted(entry, info, startFrame: startFrame))
            case .end(let entry):
                var seconds = 0.0
                if let audible, audible.entry.id == entry.id {
                    let frame = audible.startFrame + Self.trackFrames(first.frame - audible.streamFrame, at: audible.speed)
                    seconds = Double(frame) / Double(audible.info.format.sampleRate)
                }
                report?(.trackEnded(entry, seconds: seconds))
            case .tags(let entry, let tags):
                report?(.streamTagsHeard(entry, tags))
            case .skipped(let frames):
                guard var heard = audible else { continue }
                heard.startFrame += frames
                audible = heard
                report?(.silenceSkipped(heard.entry, seconds: Double(frames) / Double(heard.info.format.sampleRate)))
            }
        }
    }

    // MARK: Pace

    /// The stream frame where what is written next will be heard: after what the stretcher holds.
    private var markFrame: Int64 { streamFrames + (stretcher?.delayFrames ?? 0) }

    /// Track frames heard in `streamFrames` frames played at `speed`.
    private static func trackFrames(_ streamFrames: Int64, at speed: Double) -> Int64 {
        speed == 1 ? streamFrames : Int64((Double(streamFrames) * speed).rounded())
    }

    /// What follows plays at `pace`: what the trimmer and the stretcher hold goes out at the old one first.
    private func change(_ pace: TrackPace) async throws {
        guard pace.speed != speed || pace.skipsSilence != skipsSilence else { return }
        try await flushTrimmer()
        try await flushStretcher()
        speed = pace.speed
        skipsSilence = pace.skipsSilence
        preparePace()
    }

    /// The trimmer and the stretcher the pace needs for the stream's format.
    private func preparePace() {
        if skipsSilence, let format {
            if trimmer?.format != format { trimmer = SilenceTrimmer(format: format) }
        } else {
            trimmer = nil
        }
        prepareStretcher()
    }

    /// Plays the silence the trimmer holds back (short, so it plays).
    private func flushTrimmer() async throws {
        guard let trimmer, let format else { return }
        try await play(trimmer.flush(), format: format)
    }

    /// A stretcher for the stream's format at the speed, or none at 1. SoundTouch takes 1 to 16
    /// channels; a stream it cannot take plays at its own pace, and says so.
    private func prepareStretcher() {
        guard speed != 1, let format else {
            stretcher = nil
            return
        }
        if let stretcher, stretcher.format == format {
            if stretcher.tempo != speed { stretcher.setTempo(speed) }
            return
        }
        stretcher = TimeStretcher(format: format, tempo: speed)
        if stretcher == nil {
            logger.notice("this stream cannot play at another speed: it plays at 1×", metadata: ["format": "\(format)", "speed": "\(speed)"])
            speed = 1
        }
    }

    /// Writes out what the stretcher holds, to the frame its input is due.
    private func flushStretcher() async throws {
        guard let stretcher, !stretcher.isEmpty, let format else { return }
        try await writeOut(stretcher.flush(), format: format)
    }
}
