import Loader
import Model

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

extension PlaylistEntry {
    /// Where the entry is, as trusted as what named it: a library track as its scan recorded
    /// it, an entry of a playlist file or a feed as that document's link
    /// (`SourceSet.location(ofLink:in:)`), an entry of the user's own playlist as the user's.
    /// Every front that plays a playlist places its entries here (MPRIS and Manager1, MPD's `load`).
    package func location(in playlist: LibraryPlaylist, among sources: SourceSet) -> TrackLocation {
        if let track { return sources.location(of: url, recordedBy: track.source) }
        switch playlist.kind {
        case .file, .feed: return playlist.url.map { sources.location(of: url, namedBy: $0) } ?? sources.location(of: url)
        case .user, .folder: return sources.location(of: url)
        }
    }
}
