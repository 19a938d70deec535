/// The player's `[playback]` settings, given at start and again on a config reload (from the
/// next track on).
package struct PlaybackSettings: Sendable, Hashable {
    /// How ReplayGain tags scale tracks.
    package var loudness: ReplayGainSettings
    /// Seconds: a track longer than this (a podcast, an audiobook, a DJ mix) starts where it was
    /// left, a little before (`resume_longer_than`).
    package var resumeLongerThan: Double
    /// Seconds: a station paused up to this long plays on from where it was paused — its buffer
    /// (2 MiB) holds that much of any station up to 500 kbit/s; paused longer, it is taken up live
    /// again (`live_resume_within`).
    package var liveResumeWithin: Double

    package init(loudness: ReplayGainSettings = ReplayGainSettings(), resumeLongerThan: Double = 600, liveResumeWithin: Double = 30) {
        self.loudness = loudness
        self.resumeLongerThan = resumeLongerThan
        self.liveResumeWithin = liveResumeWithin
    }
}
