/// How a sink's recording differs from the audio played into it: silence the player inserted
/// (it waited for bytes, or for the sound server) moves nothing; a short stretch a sound server
/// put in place of audio — silence, or a ramp, when PipeWire's graph on a starved machine misses
/// a cycle — loses what it covers and keeps the rest in place. Anything else — audio repeated,
/// audio skipped, a long stretch of other audio — is a wrong recording (an error that says where).
public struct RecordingGaps: Sendable, CustomStringConvertible {
    /// Frames of reference audio lost, one entry per stretch that replaced some.
    public var lost: [Int] = []
    /// Runs of silence that lost nothing, in frames, one entry per run.
    public var waited: [Int] = []
    /// Where each of those runs came, as a frame of the reference (counted from its start).
    public var waitedAt: [Int] = []

    /// How many runs of silence lost nothing.
    public var waits: Int { waited.count }

    /// The longest run of silence that lost nothing.
    public var longestWait: Int { waited.max() ?? 0 }

    /// The longest run of silence that lost nothing within `distance` frames of the reference's
    /// frame `frame` (a join between two tracks): a wait of the player's there is a gap.
    public func longestWait(near frame: Int, within distance: Int) -> Int {
        zip(waited, waitedAt).filter { abs($0.1 - frame) <= distance }.map(\.0).max() ?? 0
    }

    /// The longest stretch of audio one silence took.
    public var longestLoss: Int { lost.max() ?? 0 }

    /// All the audio lost.
    public var totalLoss: Int { lost.reduce(0, +) }

    public var description: String { "waits of \(waited) frames, losses of \(lost) frames" }
}

extension PCMAudio {
    /// Compares this recording with `reference`, both taken from their first audible frame on.
    /// A silence is matched to the reference by where the audio after it goes on: the earliest
    /// place at most `damage` frames further on than the silence was long (a server that lost
    /// its own time, frozen, may skip a little more than it filled), checked over `probe` frames.
    /// Other audio in place of the reference's is a loss when the two agree again, in place,
    /// within `damage` frames.
    public func gaps(against reference: PCMAudio, probe: Int = 256, damage: Int = 4096) throws -> RecordingGaps {
        let lead = reference.audibleSpan().lowerBound
        let heard = frames(from: audibleSpan().lowerBound), played = reference.frames(from: lead)
        let width = channels
        guard played.channels == width else { throw TestSupportError("\(width) channels recorded, \(played.channels) played") }
        func frame(_ audio: PCMAudio, _ index: Int) -> ArraySlice<Int16> {
            audio.samples[(index * width)..<((index + 1) * width)]
        }
        func silent(_ index: Int) -> Bool { frame(heard, index).allSatisfy { $0 == 0 } }
        func matches(_ i: Int, _ j: Int) -> Bool {
            let count = min(probe, played.frameCount - j, heard.frameCount - i)
            guard count > 0 else { return false }
            return heard.samples[(i * width)..<((i + count) * width)] == played.samples[(j * width)..<((j + count) * width)]
        }
        var gaps = RecordingGaps()
        var i = 0, j = 0
        /// Where the recording's frames from `i` on are found in the reference, if anywhere within
        /// a second either side of `j`: what an error says, for the next reader of a failure.
        func whereHeard(_ i: Int) -> String {
            let second = sampleRate
            let found = (max(0, j - second)..<min(played.frameCount, j + second)).first { matches(i, $0) }
            return found.map { "what follows is the reference's \($0 - j) frames on" } ?? "not found within a second of here"
        }
        func wrong(_ what: String) -> TestSupportError {
            let rate = Double(sampleRate)
            return TestSupportError("\(what) at \(Double(j) / rate) s of the audio (\(Double(i) / rate) s of the recording): \(gaps)")
        }
        while j < played.frameCount {
            guard i < heard.frameCount else { throw wrong("the recording ends") }
            if frame(heard, i) == frame(played, j) { i += 1; j += 1; continue }
            guard silent(i) else {
                // Other audio in place of the reference's, then the two agree again in place; or
                // the recording jumps ahead without a silence, as when the recorder, starved of
                // CPU, let its server's capture buffer overflow: both lose what they skip.
                if let replaced = (1...damage).first(where: { matches(i + $0, j + $0) }) {
                    gaps.lost.append(replaced)
                    i += replaced
                    j += replaced
                } else if let skipped = (1...min(damage, played.frameCount - j)).first(where: { matches(i, j + $0) }) {
                    gaps.lost.append(skipped)
                    j += skipped
                } else {
                    throw wrong("other audio (\(whereHeard(i)))")
                }
                continue
            }
            var end = i
            while end < heard.frameCount && silent(end) { end += 1 }
            let length = end - i
            if end == heard.frameCount { throw wrong("silence to the end") }
            guard let skipped = (0...min(length + damage, played.frameCount - j)).first(where: { matches(end, j + $0) }) else {
                throw wrong("after \(length) frames of silence, audio from elsewhere (\(whereHeard(end)))")
            }
            if skipped > 0 {
                gaps.lost.append(skipped)
            } else {
                gaps.waited.append(length)
                gaps.waitedAt.append(lead + j)
            }
            i = end
            j += skipped
        }
        // After the audio, nothing but silence: no frame played twice.
        guard (i..<heard.frameCount).allSatisfy(silent) else { throw wrong("audio after the end") }
        return gaps
    }
}

extension PCMAudio {
    /// Compares `reference` from its first audible frame up to `count` frames further (all of it
    /// when nil) with where that stretch is heard in this recording — a recording that may go
    /// on with more (a stream stopped while it played, the next track): from where its first
    /// frames are heard to where its last `probe` frames are. Throws when either is not heard.
    public func gaps(againstOpening reference: PCMAudio, frames count: Int? = nil, probe: Int = 1024) throws -> RecordingGaps {
        let lead = reference.audibleSpan().lowerBound
        let opening = reference.frames(from: lead, to: count.map { lead + $0 })
        guard let start = firstFrame(matching: opening) else { throw TestSupportError("the recording never holds the reference's start") }
        let tail = opening.frames(from: opening.frameCount - probe)
        guard let end = frames(from: start).firstFrame(matching: tail, probeFrames: probe) else {
            throw TestSupportError("the recording never holds the reference's frames \(lead + opening.frameCount - probe)..<\(lead + opening.frameCount)")
        }
        return try frames(from: start, to: start + end + probe).gaps(against: opening)
    }
}
