/// Which tracks `ls` lists: every field given must match (case-insensitively, as a substring).
public struct TrackFilter: Sendable, Equatable {
    public var artist: String?
    public var album: String?
    public var title: String?
    public var source: String?
    /// Also list tracks the last scan did not find.
    public var includeGone = false

    public init(artist: String? = nil, album: String? = nil, title: String? = nil, source: String? = nil, includeGone: Bool = false) {
        self.artist = artist
        self.album = album
        self.title = title
        self.source = source
        self.includeGone = includeGone
    }
}
