/// What flows through the bounded queue from the decoder to the output, in playing order.
package enum PCMPacket: Sendable {
    /// A track begins; the samples that follow are its, from `startFrame` on.
    case trackStart(QueueEntry, TrackInfo, startFrame: Int64)
    /// Interleaved samples of the current track.
    case samples(PCMSamples)
    /// A live stream's song changes here: what follows is heard as `TrackTags` say (the title
    /// and artist a station announced; empty between songs).
    case streamTags(QueueEntry, TrackTags)
    /// The current track was decoded to its end (or as far as it could be).
    case trackEnd(QueueEntry)
    /// How what follows is played out: its speed, its pitch kept, and whether long silences are
    /// shortened (`TrackPace.natural`: as it is, sample for sample). Sent before each track,
    /// which has a pace of its own.
    case pace(TrackPace)
}
