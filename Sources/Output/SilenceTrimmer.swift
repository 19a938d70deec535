import Model

/// Shortens long silences, as podcast apps' "skip silence" does: a stretch where every channel
/// stays under `threshold` for longer than `minimumSeconds` keeps only its first `keptSeconds`, so
/// a pause is still heard as one. Shorter silences, and everything else, pass bit for bit.
///
/// It decides frame by frame, so it holds back at most `minimumSeconds` of silence (not yet known
/// to be long) and says where it dropped frames: the output counts them in the track's time.
/// (ExoPlayer's `SilenceSkippingAudioProcessor`, which AntennaPod uses, works the same way.)
final class SilenceTrimmer {
    /// What came out of a packet, in order: samples to play, and frames left out.
    enum Piece: Equatable {
        case keep(PCMSamples)
        case skip(frames: Int64)
    }

    /// Quieter than this is silence: −45 dBFS (10^(−45/20) of full scale), under speech's
    /// quietest syllables and above the room noise of a recording (typically −60 to −50 dBFS).
    static let threshold = 0.005_623_413_251_903_491
    /// A silence longer than this is shortened…
    static let minimumSeconds = 0.5
    /// …to this much of its start.
    static let keptSeconds = 0.25

    let format: PCMFormat
    private let limit: Int32
    private let minimumFrames: Int
    private let keptFrames: Int
    /// Frames of the silence going on at the end of what came so far (0: none).
    private var run = 0
    /// That silence's samples while it may still be short (widened for 16-bit streams too).
    private var held: [Int32] = []

    init(format: PCMFormat) {
        self.format = format
        limit = Int32((format.fullScale * Self.threshold).rounded())
        minimumFrames = Int(Self.minimumSeconds * Double(format.sampleRate))
        keptFrames = Int(Self.keptSeconds * Double(format.sampleRate))
    }

    /// The pieces of `samples`: what plays, and what is left out.
    func process(_ samples: PCMSamples) -> [Piece] {
        switch samples {
        case .int16(let values): scan(values.map(Int32.init)).map(narrowed)
        case .int32(let values): scan(values)
        }
    }

    /// The end of the track (or of this pace): a silence still held was short, and plays.
    func flush() -> [Piece] {
        defer {
            run = 0
            held.removeAll()
        }
        guard run > 0, run <= minimumFrames, !held.isEmpty else { return [] }
        return [narrowed(.keep(.int32(held)))]
    }

    private func scan(_ values: [Int32]) -> [Piece] {
        let channels = format.channels
        var pieces = Pieces()
        // Where the sound not yet handed out starts, as a sample index.
        var soundStart = 0
        for base in stride(from: 0, to: values.count - channels + 1, by: channels) {
            var silent = true
            for channel in 0..<channels where abs(Int64(values[base + channel])) > Int64(limit) {
                silent = false
                break
            }
            guard silent else {
                if run > 0 {
                    if run <= minimumFrames { pieces.keep(held[...]) }
                    held.removeAll(keepingCapacity: true)
                    run = 0
                    soundStart = base
                }
                continue
            }
            if run == 0 { pieces.keep(values[soundStart..<base]) }
            run += 1
            soundStart = base + channels
            if run <= minimumFrames {
                held.append(contentsOf: values[base..<(base + channels)])
            } else if run == minimumFrames + 1 {
                // Long now: its start plays, the rest of it so far and this frame do not.
                pieces.keep(held.prefix(keptFrames * channels))
                pieces.skip(Int64(held.count / channels - keptFrames + 1))
                held.removeAll(keepingCapacity: true)
            } else {
                pieces.skip(1)
            }
        }
        if run == 0 { pieces.keep(values[soundStart...]) }
        return pieces.finished
    }

    /// Samples back to the stream's width.
    private func narrowed(_ piece: Piece) -> Piece {
        guard case .keep(.int32(let values)) = piece, !format.isWide else { return piece }
        return .keep(.int16(values.map { Int16(truncatingIfNeeded: $0) }))
    }

    /// Pieces as they come, each run of samples or of left-out frames in one.
    private struct Pieces {
        private var list: [Piece] = []
        private var samples: [Int32] = []

        mutating func keep(_ more: ArraySlice<Int32>) {
            samples.append(contentsOf: more)
        }

        mutating func skip(_ frames: Int64) {
            if !samples.isEmpty {
                list.append(.keep(.int32(samples)))
                samples.removeAll()
            }
            if case .skip(let before)? = list.last {
                list[list.count - 1] = .skip(frames: before + frames)
            } else {
                list.append(.skip(frames: frames))
            }
        }

        var finished: [Piece] {
            samples.isEmpty ? list : list + [.keep(.int32(samples))]
        }
    }
}
