/// What is known of a track without playing it — from the library or a feed — or once it has
/// played, from its own tags: what the queue, MPRIS and `cloudplayerctl` show of it.
package struct TrackMetadata: Sendable, Hashable {
    /// The tags, never with a picture (art goes to a file, once).
    package var tags: TrackTags
    package var duration: Double?
    /// Where a long track was left (the library's), to start from there; nil: from the start.
    package var resumeAt: Double?
    /// A long track listened to the end (a podcast episode heard).
    package var played = false

    package init(tags: TrackTags = TrackTags(), duration: Double? = nil, resumeAt: Double? = nil, played: Bool = false) {
        var tags = tags
        tags.artwork = nil
        self.tags = tags
        self.duration = duration
        self.resumeAt = resumeAt
        self.played = played
    }

    /// What is known, with the gaps filled from `heard` (a track's own tags, once it plays): what
    /// the library or a feed said stays (a feed's episode title beats a file's missing one), the
    /// decoder's length wins (it is exact).
    package func filled(from heard: TrackMetadata) -> TrackMetadata {
        TrackMetadata(tags: tags.filled(from: heard.tags), duration: heard.duration ?? duration, resumeAt: resumeAt, played: played)
    }
}
