import Library
import Model

/// The tags the server knows, by MPD's names (`tagtypes`, song fields, filter and `list`
/// arguments): every tag of MPD 0.23's `tagtypes` a file can carry (not `Name`, a stream's).
/// Clients spell them in any case; answers use MPD's spelling.
package enum MPDTag: String, Sendable, CaseIterable {
    // The order songs are written in: the eight every client shows first, then MPD's order.
    case artist = "Artist"
    case albumArtist = "AlbumArtist"
    case title = "Title"
    case album = "Album"
    case track = "Track"
    case date = "Date"
    case genre = "Genre"
    case disc = "Disc"
    case artistSort = "ArtistSort"
    case albumSort = "AlbumSort"
    case albumArtistSort = "AlbumArtistSort"
    case originalDate = "OriginalDate"
    case composer = "Composer"
    case composerSort = "ComposerSort"
    case performer = "Performer"
    case conductor = "Conductor"
    case work = "Work"
    case movement = "Movement"
    case movementNumber = "MovementNumber"
    case ensemble = "Ensemble"
    case location = "Location"
    case grouping = "Grouping"
    case label = "Label"
    case musicBrainzArtistID = "MUSICBRAINZ_ARTISTID"
    case musicBrainzAlbumID = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtistID = "MUSICBRAINZ_ALBUMARTISTID"
    case musicBrainzTrackID = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseTrackID = "MUSICBRAINZ_RELEASETRACKID"
    case musicBrainzWorkID = "MUSICBRAINZ_WORKID"

    /// The tag a client names, in any case; nil if the server does not know it.
    package init?(name: some StringProtocol) {
        guard let tag = Self.byName[name.lowercased()] else { return nil }
        self = tag
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    /// The tags in the order MPD 0.23 lists them (`tagtypes`; src/tag/Names.c).
    package static let listed: [MPDTag] = [
        .artist, .artistSort, .album, .albumSort, .albumArtist, .albumArtistSort, .title, .track, .genre, .date,
        .originalDate, .composer, .composerSort, .performer, .conductor, .work, .movement, .movementNumber, .ensemble,
        .location, .grouping, .disc, .label, .musicBrainzArtistID, .musicBrainzAlbumID, .musicBrainzAlbumArtistID,
        .musicBrainzTrackID, .musicBrainzReleaseTrackID, .musicBrainzWorkID,
    ]

    /// The library's tag it is.
    package var trackTag: TrackTag {
        switch self {
        case .artist: .artist
        case .albumArtist: .albumArtist
        case .title: .title
        case .album: .album
        case .track: .track
        case .date: .date
        case .genre: .genre
        case .disc: .disc
        default: .text(textTag!)
        }
    }

    /// The text tag that holds it, for the tags beyond the eight.
    var textTag: TextTag? {
        switch self {
        case .artist, .albumArtist, .title, .album, .track, .date, .genre, .disc: nil
        case .artistSort: .artistSort
        case .albumSort: .albumSort
        case .albumArtistSort: .albumArtistSort
        case .originalDate: .originalDate
        case .composer: .composer
        case .composerSort: .composerSort
        case .performer: .performer
        case .conductor: .conductor
        case .work: .work
        case .movement: .movement
        case .movementNumber: .movementNumber
        case .ensemble: .ensemble
        case .location: .location
        case .grouping: .grouping
        case .label: .label
        case .musicBrainzArtistID: .musicBrainzArtistID
        case .musicBrainzAlbumID: .musicBrainzAlbumID
        case .musicBrainzAlbumArtistID: .musicBrainzAlbumArtistID
        case .musicBrainzTrackID: .musicBrainzTrackID
        case .musicBrainzReleaseTrackID: .musicBrainzReleaseTrackID
        case .musicBrainzWorkID: .musicBrainzWorkID
        }
    }

    /// Whether `name` is one of MPD's tag names, known here or not: `tagtypes disable` and a
    /// filter may name a tag the server never has, which matches nothing rather than failing.
    package static func isMPDTagName(_ name: some StringProtocol) -> Bool {
        mpdNames.contains(name.lowercased())
    }

    /// Every tag name of MPD 0.23 (src/tag/Names.c), lower case.
    private static let mpdNames: Set<String> = Set(allCases.map { $0.rawValue.lowercased() } + ["name", "comment"])
}

extension TrackTag {
    /// The tag an MPD client names, in any case: one of MPD's tags the server knows, `file` or `any`.
    package init?(mpdName name: some StringProtocol) {
        switch name.lowercased() {
        case "file": self = .file
        case "any": self = .any
        default:
            guard let tag = MPDTag(name: name) else { return nil }
            self = tag.trackTag
        }
    }
}
