import Model

/// What the output tells the player while it plays: moments the listener hears, not moments
/// the decoder reached.
package enum OutputEvent: Sendable {
    /// The first frame of a track (from `startFrame`) is being heard.
    case trackStarted(QueueEntry, TrackInfo, startFrame: Int64)
    /// The last frame of a track has been heard, `seconds` into it: its end, or where an error
    /// stopped its decoding.
    case trackEnded(QueueEntry, seconds: Double)
    /// A live stream's song changed here, as heard: these are its tags now.
    case streamTagsHeard(QueueEntry, TrackTags)
    /// Silence of the track was left out here (skip silence): what is heard now is `seconds`
    /// further into it than the time it played says.
    case silenceSkipped(QueueEntry, seconds: Double)
    /// The output could not take this track (say, a WAV file of another format); it was skipped.
    case trackRejected(QueueEntry, any Error)
    /// Everything was played; the stream has drained.
    case finished
    /// The device failed; nothing more will play on this pipeline.
    case failed(any Error)
}
