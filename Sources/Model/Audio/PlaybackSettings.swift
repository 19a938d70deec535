/// The player's `[playback]` settings, given at start and again on a config reload (from the
/// next track on).
package struct PlaybackSettings: Sendable, Hashable {
    /// How ReplayGain tags scale tracks.
    package var loudness: ReplayGainSettings
    /// Seconds: a track longer than this (a podcast, an audiobook, a DJ mix) starts where it was
    /// left, a little before (`resume_longer_than`).
    package var resumeLongerThan: Double

    package init(loudness: ReplayGainSettings = ReplayGainSettings(), resumeLongerThan: Double = 600) {
        self.loudness = loudness
        self.resumeLongerThan = resumeLongerThan
    }
}
