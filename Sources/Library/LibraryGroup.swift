/// An artist or an album a desktop search found: its names, and one of its tracks that stands
/// for it — its id names the group on the bus (no name to escape, bounded), and its cover, when
/// any track found has one, is the group's.
package struct LibraryGroup: Sendable, Equatable {
    package enum Kind: Sendable {
        case artist, album
    }

    package var kind: Kind
    /// The artist's name, or the album's title.
    package var name: String
    /// An album's album artist (else its artist); nil for an artist.
    package var artist: String?
    /// The track that stands for it.
    package var trackID: Int64
    package var artPath: String?

    package init(kind: Kind, name: String, artist: String?, trackID: Int64, artPath: String?) {
        self.kind = kind
        self.name = name
        self.artist = artist
        self.trackID = trackID
        self.artPath = artPath
    }
}
