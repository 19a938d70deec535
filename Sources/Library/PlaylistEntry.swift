/// One track of a playlist as it plays: its location, and what the library knows of it (nil for
/// a location no scan has found).
package struct PlaylistEntry: Sendable, Equatable {
    package var url: String
    package var title: String?
    package var track: LibraryTrack?

    package init(url: String, title: String?, track: LibraryTrack? = nil) {
        self.url = url
        self.title = title
        self.track = track
    }
}
