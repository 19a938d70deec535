import Model

/// What the pipeline goes by when a track ends by itself: the queue as the player last had it,
/// the `[playback]` settings and whether to stop after the current track. The player hands the
/// pipeline a new plan whenever one of them changes; the pipeline reads the latest one without
/// waiting for the player, whose mailbox it feeds (a decoder must never wait on a mailbox that
/// is waiting on it).
package struct PlayPlan: Sendable {
    package var queue: PlayQueue
    package var settings: PlaybackSettings
    /// The entry after which nothing follows into the output (`stop-after`), if any.
    package var stopAfter: QueueEntry.ID?

    package init(queue: PlayQueue = PlayQueue(), settings: PlaybackSettings = PlaybackSettings(), stopAfter: QueueEntry.ID? = nil) {
        self.queue = queue
        self.settings = settings
        self.stopAfter = stopAfter
    }

    /// `entry` from `start` seconds (the player's jump: a play, a seek, Next).
    package func step(_ entry: QueueEntry, at start: Double, readingTags: Bool = true) -> PlayStep {
        PlayStep(entry: entry, start: start, readingTags: readingTags, loudness: settings.loudness,
                 inAlbumRun: settings.loudness.mode == .auto && queue.isInAlbumRun(entry.id), pace: settings.pace(of: entry))
    }

    /// What plays once `id` has ended by itself: the next entry in play order (the same one in a
    /// track loop, its tags known), from where it was left if it is long; nil when nothing
    /// follows — the end of the queue, or stop-after.
    package func step(after id: QueueEntry.ID) -> PlayStep? {
        guard stopAfter != id, let following = queue.entry(after: id, automatically: true) else { return nil }
        return step(following, at: settings.resumePoint(of: following) ?? 0, readingTags: following.id != id)
    }

    /// How many tracks the queue holds: a queue where every one fails stops after one round.
    package var length: Int { queue.entries.count }
}
