import Model

extension TrackTags {
    /// These tags without loudness values — LAME writes a gain it measured into every MP3 it
    /// makes — for a test of the text tags.
    package var text: TrackTags {
        var tags = self
        tags.replayGain = ReplayGain()
        return tags
    }
}
