import Model

/// Where long tracks (podcasts, audiobooks, DJ mixes — longer than `resume_longer_than`) start
/// again and when they count as heard to the end: one rule, used by the player when it jumps and
/// by the plan when a track follows by itself.
extension PlaybackSettings {
    /// How far before where a long track was left it starts again, so it does not start in the
    /// middle of a word.
    static let resumeBackoff = 5.0

    /// Whether `entry` is long enough to start where it was left.
    func isLong(_ entry: QueueEntry) -> Bool {
        guard let duration = entry.metadata.duration else { return false }
        return duration > resumeLongerThan
    }

    /// Where a long track starts when played afresh; nil: from its start.
    func resumePoint(of entry: QueueEntry) -> Double? {
        guard isLong(entry), !entry.metadata.played, let left = entry.metadata.resumeAt, left > 0 else { return nil }
        return max(0, left - Self.resumeBackoff)
    }

    /// What a long track's metadata says once it was left at `seconds` (or heard to its end,
    /// `ended`): within its last 30 s or 97 % counts as heard; nil when nothing changes or the
    /// track is not long.
    func progress(of entry: QueueEntry, at seconds: Double, ended: Bool = false) -> TrackMetadata? {
        guard isLong(entry), let duration = entry.metadata.duration, seconds.isFinite || ended else { return nil }
        let finished = ended || seconds >= duration - 30 || seconds >= 0.97 * duration
        var metadata = entry.metadata
        metadata.played = finished
        metadata.resumeAt = finished || seconds < 1 ? nil : seconds
        return metadata == entry.metadata ? nil : metadata
    }
}
