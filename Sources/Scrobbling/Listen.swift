import Base
import FoundationEssentials
import Model

/// One listen to count: what was heard and when it began. It is what the disk queue keeps, so a
/// listen sent again after a crash carries the same `listenedAt` and the service records it once.
package struct Listen: Codable, Sendable, Equatable {
    /// When the track began to play, in seconds since 1970 (ListenBrainz's `listened_at`).
    package var listenedAt: Int64
    package var artist: String
    package var track: String
    package var release: String?
    package var durationMs: Int?
    package var trackNumber: Int?

    package init(listenedAt: Int64, artist: String, track: String, release: String? = nil, durationMs: Int? = nil, trackNumber: Int? = nil) {
        self.listenedAt = listenedAt
        self.artist = artist
        self.track = track
        self.release = release
        self.durationMs = durationMs
        self.trackNumber = trackNumber
    }

    /// A track's listen, from its tags; nil without an artist and a title (the service needs
    /// both, and a file name is no title to count). No location: a URL could carry credentials.
    package init?(_ entry: QueueEntry, startedAt: Date) {
        let tags = entry.metadata.tags
        guard let artist = (tags.artist ?? tags.albumArtist)?.trimmingWhitespace(), !artist.isEmpty,
              let title = tags.title?.trimmingWhitespace(), !title.isEmpty else { return nil }
        self.init(listenedAt: Int64(startedAt.timeIntervalSince1970.rounded(.down)), artist: artist, track: title,
                  release: tags.album.flatMap { $0.isEmpty ? nil : $0 },
                  durationMs: entry.metadata.duration.map { Int(($0 * 1000).rounded()) },
                  trackNumber: tags.trackNumber)
    }

    /// How logs name it.
    package var shown: String { "\(artist) – \(track)" }
}
