/// Which tracks `ls` lists: every field given must match (case-insensitively, as a substring).
package struct TrackFilter: Sendable, Equatable {
    package var artist: String?
    package var album: String?
    package var title: String?
    package var source: String?
    /// Also list tracks the last scan did not find.
    package var includeGone = false

    package init(artist: String? = nil, album: String? = nil, title: String? = nil, source: String? = nil, includeGone: Bool = false) {
        self.artist = artist
        self.album = album
        self.title = title
        self.source = source
        self.includeGone = includeGone
    }
}
