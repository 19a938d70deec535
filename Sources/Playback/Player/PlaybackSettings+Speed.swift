import Model

/// Which speed a track plays at: one rule, used by the plan for each track and by the player for
/// the position's pace.
extension PlaybackSettings {
    /// The speed the user chose for `entry` as it played, else its source's (`speed` in its
    /// `[[source]]`, or what the user chose for that source's tracks in this session), else
    /// `[playback] speed`.
    func speed(of entry: QueueEntry) -> Double {
        entry.metadata.speed ?? sourceSpeeds[Self.speedKey(of: entry)] ?? speed
    }

    /// `entry`'s speed, and whether its silences are shortened (its source's `skip_silence`, else
    /// `[playback]`'s).
    func pace(of entry: QueueEntry) -> TrackPace {
        TrackPace(speed: speed(of: entry), skipsSilence: sourceSkipSilence[Self.speedKey(of: entry)] ?? skipSilence)
    }

    /// The key of `sourceSpeeds` an entry goes by: its source's name ("" for a plain URL).
    static func speedKey(of entry: QueueEntry) -> String {
        entry.location.source ?? ""
    }

    /// `speed` within the speeds a track can play at.
    static func clamped(speed: Double) -> Double {
        min(max(speed, speeds.lowerBound), speeds.upperBound)
    }
}
