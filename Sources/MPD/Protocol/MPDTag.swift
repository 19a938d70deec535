/// The tags the server knows, by MPD's names (`tagtypes`, song fields, filter and `list`
/// arguments). Clients spell them in any case; answers use MPD's spelling.
package enum MPDTag: String, Sendable, CaseIterable {
    case artist = "Artist"
    case albumArtist = "AlbumArtist"
    case title = "Title"
    case album = "Album"
    case track = "Track"
    case date = "Date"
    case genre = "Genre"
    case disc = "Disc"

    /// The tag a client names, in any case; nil if the server does not know it.
    package init?(name: some StringProtocol) {
        let lowered = name.lowercased()
        guard let tag = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = tag
    }

    /// Whether `name` is one of MPD's tag names, known here or not: `tagtypes disable` and a
    /// filter may name a tag the server never has, which matches nothing rather than failing.
    package static func isMPDTagName(_ name: some StringProtocol) -> Bool {
        mpdNames.contains(name.lowercased())
    }

    /// Every tag name of MPD 0.23 (src/tag/Names.c), lower case.
    private static let mpdNames: Set<String> = Set([
        "artist", "artistsort", "album", "albumsort", "albumartist", "albumartistsort", "title", "track", "name",
        "genre", "date", "originaldate", "composer", "performer", "conductor", "work", "grouping", "comment", "disc",
        "label", "musicbrainz_artistid", "musicbrainz_albumid", "musicbrainz_albumartistid", "musicbrainz_trackid",
        "musicbrainz_releasetrackid", "musicbrainz_workid", "composersort", "ensemble", "movement", "movementnumber",
        "location",
    ])
}
