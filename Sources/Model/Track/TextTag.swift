/// The tags beyond the ones every view shows (title, artist, album, …) that a file may carry and
/// an MPD client lists, searches and sorts by: who composed or conducted it, the date as the
/// tag writes it, sort names, MusicBrainz identifiers. Each is text, kept as the file says it
/// (the first value of a tag given more than once). The raw value is the library's column.
package enum TextTag: String, Sendable, Hashable, CaseIterable {
    /// The date as written ("2019-03-01"; `TrackTags.year` is its year).
    case date = "dateText"
    case originalDate
    case composer
    case composerSort
    case performer
    case conductor
    case work
    case movement
    case movementNumber
    case ensemble
    case location
    case grouping
    case comment
    case label
    case artistSort
    case albumSort
    case albumArtistSort
    case musicBrainzArtistID
    case musicBrainzAlbumID
    case musicBrainzAlbumArtistID
    case musicBrainzTrackID
    case musicBrainzReleaseTrackID
    case musicBrainzWorkID
}
