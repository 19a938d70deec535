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
    /// The pace tracks play at, the pitch kept (`[playback] speed`), unless their source says
    /// otherwise (`sourceSpeeds`, a `[[source]]`'s `speed`) or the user chose one for the track.
    package var speed: Double
    /// `speed` of the sources that have their own (a podcast feed at 1.3, music at 1), by name.
    package var sourceSpeeds: [String: Double]
    /// Long silences shortened (`[playback] skip_silence`), unless the source says otherwise
    /// (`sourceSkipSilence`): for speech; off by default, so music never is unless asked.
    package var skipSilence: Bool
    package var sourceSkipSilence: [String: Bool]

    /// The speeds a track can play at: what podcast apps offer, and MPRIS's Minimum and MaximumRate.
    package static let speeds: ClosedRange<Double> = 0.5...3

    package init(loudness: ReplayGainSettings = ReplayGainSettings(), resumeLongerThan: Double = 600, liveResumeWithin: Double = 30,
                 speed: Double = 1, sourceSpeeds: [String: Double] = [:], skipSilence: Bool = false, sourceSkipSilence: [String: Bool] = [:]) {
        self.loudness = loudness
        self.resumeLongerThan = resumeLongerThan
        self.liveResumeWithin = liveResumeWithin
        self.speed = speed
        self.sourceSpeeds = sourceSpeeds
        self.skipSilence = skipSilence
        self.sourceSkipSilence = sourceSkipSilence
    }
}
