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
    /// The speed the user chose while this track played (the library keeps it with where it was
    /// left): it plays at that speed again; nil: its source's or `[playback]`'s.
    package var speed: Double?
    /// Where its chapters are kept apart from it: a feed episode's Podcasting 2.0 JSON file
    /// (`<podcast:chapters>`), read as it plays when the file has none of its own.
    package var chaptersURL: String?

    package init(tags: TrackTags = TrackTags(), duration: Double? = nil, resumeAt: Double? = nil, played: Bool = false, speed: Double? = nil,
                 chaptersURL: String? = nil) {
        var tags = tags
        tags.artwork = nil
        self.tags = tags
        self.duration = duration
        self.resumeAt = resumeAt
        self.played = played
        self.speed = speed
        self.chaptersURL = chaptersURL
    }

    /// What is known, with the gaps filled from `heard` (a track's own tags, once it plays): what
    /// the library or a feed said stays (a feed's episode title beats a file's missing one), the
    /// decoder's length wins (it is exact).
    package func filled(from heard: TrackMetadata) -> TrackMetadata {
        TrackMetadata(tags: tags.filled(from: heard.tags), duration: heard.duration ?? duration, resumeAt: resumeAt, played: played, speed: speed,
                      chaptersURL: chaptersURL ?? heard.chaptersURL)
    }
}
