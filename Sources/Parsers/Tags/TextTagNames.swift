import Model

/// Where each format keeps the `TextTag`s: Vorbis comment fields (Ogg, Opus, FLAC), ID3v2 frames
/// and `TXXX` descriptions, MP4 items and freeform `com.apple.iTunes:` names — the names
/// MusicBrainz Picard writes and MPD reads (MPD's src/tag/Id3Scan.cxx, VorbisComments.cxx,
/// and Picard's tag mapping: https://picard-docs.musicbrainz.org/en/appendices/tag_mapping.html).
enum TextTagNames {
    /// Vorbis comment field names, upper case.
    static let vorbis: [String: TextTag] = [
        "DATE": .date, "ORIGINALDATE": .originalDate, "COMPOSER": .composer, "COMPOSERSORT": .composerSort,
        "PERFORMER": .performer, "CONDUCTOR": .conductor, "WORK": .work, "GROUPING": .grouping,
        "MOVEMENTNAME": .movement, "MOVEMENT": .movement, "MOVEMENTNUMBER": .movementNumber, "ENSEMBLE": .ensemble,
        "LOCATION": .location,
        "COMMENT": .comment, "DESCRIPTION": .comment, "LABEL": .label,
        "ARTISTSORT": .artistSort, "ALBUMSORT": .albumSort, "ALBUMARTISTSORT": .albumArtistSort,
        "MUSICBRAINZ_ARTISTID": .musicBrainzArtistID, "MUSICBRAINZ_ALBUMID": .musicBrainzAlbumID,
        "MUSICBRAINZ_ALBUMARTISTID": .musicBrainzAlbumArtistID, "MUSICBRAINZ_TRACKID": .musicBrainzTrackID,
        "MUSICBRAINZ_RELEASETRACKID": .musicBrainzReleaseTrackID, "MUSICBRAINZ_WORKID": .musicBrainzWorkID,
    ]

    /// ID3v2 text frames (v2.3/2.4 and v2.2's three letters). Not `TSOC`: MPD 0.23 reads no
    /// composer sort from ID3, and its clients sort by what it says.
    static let id3Frames: [String: TextTag] = [
        "TDRC": .date, "TYER": .date, "TYE": .date, "TDOR": .originalDate, "TORY": .originalDate, "TOR": .originalDate,
        "TCOM": .composer, "TCM": .composer, "TPE3": .conductor, "TP3": .conductor,
        "TPE4": .performer, "TP4": .performer, "TIT1": .grouping, "TT1": .grouping, "TPUB": .label, "TPB": .label,
        "TSOP": .artistSort, "TSOA": .albumSort, "TSO2": .albumArtistSort, "MVNM": .movement, "MVIN": .movementNumber,
    ]

    /// `TXXX` (and MP4 freeform) descriptions, upper case: the MusicBrainz identifiers Picard writes.
    static let musicBrainz: [String: TextTag] = [
        "MUSICBRAINZ ARTIST ID": .musicBrainzArtistID, "MUSICBRAINZ ALBUM ID": .musicBrainzAlbumID,
        "MUSICBRAINZ ALBUM ARTIST ID": .musicBrainzAlbumArtistID, "MUSICBRAINZ TRACK ID": .musicBrainzTrackID,
        "MUSICBRAINZ RELEASE TRACK ID": .musicBrainzReleaseTrackID, "MUSICBRAINZ WORK ID": .musicBrainzWorkID,
    ]

    /// MP4 items.
    static let mp4Items: [String: TextTag] = [
        "\u{A9}day": .date, "\u{A9}wrt": .composer, "soco": .composerSort, "\u{A9}grp": .grouping, "\u{A9}wrk": .work,
        "\u{A9}cmt": .comment, "soar": .artistSort, "soal": .albumSort, "soaa": .albumArtistSort,
    ]

    /// MP4 freeform names (`com.apple.iTunes:NAME`), upper case.
    static let mp4Freeform: [String: TextTag] = [
        "CONDUCTOR": .conductor, "LABEL": .label, "ORIGINALDATE": .originalDate, "PERFORMER": .performer,
    ].merging(musicBrainz) { a, _ in a }
}

extension TrackTags {
    /// Keeps `value` for `tag` unless the tag has one already: a tag given twice keeps its first.
    mutating func offer(_ value: String?, for tag: TextTag?) {
        guard let tag, let value, !value.isEmpty, more[tag] == nil else { return }
        more[tag] = value
    }
}
