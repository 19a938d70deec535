import Model

/// One track as the pipeline plays it: everything the decoder needs for it, decided by the
/// player's plan beforehand, so the pipeline never has to ask the player mid-way.
package struct PlayStep: Sendable, Equatable {
    package let entry: QueueEntry
    /// Seconds into the track to start at (a seek, or where a long track was left).
    package let start: Double
    /// False when its tags are known already (a seek in it, a track loop): its head and tail are
    /// not read again.
    package let readingTags: Bool
    /// How its ReplayGain tags scale it, and whether it plays among its own album's tracks (`auto`).
    package let loudness: ReplayGainSettings
    package let inAlbumRun: Bool
    /// Its speed and whether its silences are shortened (`PlaybackSettings.pace(of:)`).
    package let pace: TrackPace

    package init(entry: QueueEntry, start: Double, readingTags: Bool, loudness: ReplayGainSettings, inAlbumRun: Bool,
                 pace: TrackPace = .natural) {
        self.entry = entry
        self.start = start
        self.readingTags = readingTags
        self.loudness = loudness
        self.inAlbumRun = inAlbumRun
        self.pace = pace
    }
}
