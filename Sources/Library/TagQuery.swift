import Model

/// A question MPD's `find`, `search`, `list` and `count` ask of the library: which tracks (a
/// filter over their tags), in which order, which slice of them. It speaks the library's terms —
/// locations, not MPD's relative paths — so the MPD server maps its paths before it asks (a
/// `base` is a folder's location, a `file` a track's).
package struct TagQuery: Sendable, Equatable {
    package var filter: TagFilter?
    /// Ordered by this tag (then in database order); nil: database order (folder, then location).
    package var sort: TrackTag?
    package var descending = false
    /// `window START:END`: the tracks from START up to, not including, END.
    package var window: Range<Int>?

    package init(filter: TagFilter? = nil, sort: TrackTag? = nil, descending: Bool = false, window: Range<Int>? = nil) {
        self.filter = filter
        self.sort = sort
        self.descending = descending
        self.window = window
    }
}

/// The tags MPD filters, lists and sorts by, as the library stores them.
package enum TrackTag: Sendable, Hashable {
    case artist, albumArtist, album, title, genre, date, track, disc
    /// One of the other text tags (composer, MusicBrainz ids, …).
    case text(TextTag)
    /// The track's location (MPD's `file`).
    case file
    /// Any of the text tags (title, artist, album, album artist, genre).
    case any

    /// The track table's column, or the expression of columns that is its value; nil for `any`.
    var column: String? {
        switch self {
        case .artist: "artist"
        case .albumArtist: "albumArtist"
        case .album: "album"
        case .title: "title"
        case .genre: "genre"
        // The date as the tag writes it ("2019-03-01"), else the year alone (a track scanned
        // from a server's listing, or before the library kept the text): as MPD compares it.
        case .date: "coalesce(dateText, CAST(year AS TEXT))"
        case .track: "trackNumber"
        case .disc: "discNumber"
        case .text(let tag): tag.rawValue
        case .file: "url"
        case .any: nil
        }
    }

    /// Stored as numbers: compared with numbers where the value is one, else as text.
    var isNumber: Bool { self == .track || self == .disc }

    /// Whether an index holds its values in order, so `list` reads them from it.
    var isIndexed: Bool {
        switch self {
        case .artist, .albumArtist, .album, .title, .genre: true
        default: false
        }
    }

    /// The columns the trigram index (`trackText`) holds: a substring in them is found there.
    var textColumns: [String] {
        switch self {
        case .artist, .albumArtist, .album, .title, .genre: [column!]
        case .any: ["title", "artist", "album", "albumArtist", "genre"]
        default: []
        }
    }
}

/// How a tag's value is compared with a filter's.
package enum TagMatch: Sendable, Equatable {
    /// `==`, and `find TAG VALUE`.
    case equal
    /// `!=`: also true of a track without the tag.
    case notEqual
    /// `contains`, and `search TAG VALUE`.
    case contains
    case startsWith
    /// `=~`: a regular expression finds a match in it (`LibraryRegex`).
    case matches
    /// `!~`: none does; also true of a track without the tag (which no expression matches, as in
    /// MPD 0.23: `(Artist =~ '^$')` does not find an untagged song, `(Artist !~ 'x')` does).
    case notMatches
}

/// MPD's filter expression, over the library's values.
package indirect enum TagFilter: Sendable, Equatable {
    /// A tag compared with `value`; `foldCase`: as `search` compares (case folded), else as `find`.
    case tag(TrackTag, TagMatch, String, foldCase: Bool)
    /// Every track under the folder at this location (`base`).
    case base(String)
    case not(TagFilter)
    case and([TagFilter])
}
