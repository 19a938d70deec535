import FoundationEssentials
import Model
import SQLite

/// A track the library knows: where it is, what the server said of it (so a rescan can tell
/// whether it changed) and what its tags say. `gone`: it was not found by the last scan of its
/// source — kept (a playlist may name it) but shown as gone, never silently.
package struct LibraryTrack: Sendable, Equatable {
    package var id: Int64?
    package var url: String
    /// The `[[source]]` it was found in.
    package var source: String
    /// The folder (or feed) it was found in: a folder playlist is the tracks of one folder.
    package var folder: String
    package var size: Int64?
    /// ETag, else Last-Modified: unchanged means its tags need no second reading.
    package var validator: String?
    package var title: String?
    package var artist: String?
    package var album: String?
    package var albumArtist: String?
    package var genre: String?
    package var trackNumber: Int?
    package var discNumber: Int?
    package var year: Int?
    /// ReplayGain tags (dB, and peaks as fractions of full scale).
    package var trackGain: Double?
    package var trackPeak: Double?
    package var albumGain: Double?
    package var albumPeak: Double?
    /// Where a long track was left; whether it was heard to the end.
    package var resumeAt: Double?
    package var played = false
    /// The speed the user chose for it as it played; nil: its source's.
    package var speed: Double?
    /// A feed episode's chapters file (Podcasting 2.0).
    package var chaptersURL: String?
    package var duration: Double?
    package var codec: String?
    /// Embedded cover art, as a file in the cache (for `mpris:artUrl`).
    package var artPath: String?
    /// A feed episode's date: feeds list newest first.
    package var published: Date?
    package var gone: Bool
    /// Why its tags could not be read, if they could not.
    package var problem: String?
    /// Its other text tags (`TextTag`: a column each).
    package var more: [TextTag: String] = [:]

    package init(url: String, source: String, folder: String) {
        self.url = url
        self.source = source
        self.folder = folder
        gone = false
    }

    /// Read column by column from a query that selects `selection()` — `columns`' order, which
    /// `values` writes in too (a value of the wrong type throws).
    init(row: SQLiteRow) throws {
        var columns = SQLiteColumnReader(row)
        id = try columns.next()
        url = try columns.next()
        source = try columns.next()
        folder = try columns.next()
        size = try columns.next()
        validator = try columns.next()
        title = try columns.next()
        artist = try columns.next()
        album = try columns.next()
        albumArtist = try columns.next()
        genre = try columns.next()
        trackNumber = try columns.next()
        discNumber = try columns.next()
        year = try columns.next()
        trackGain = try columns.next()
        trackPeak = try columns.next()
        albumGain = try columns.next()
        albumPeak = try columns.next()
        resumeAt = try columns.next()
        played = try columns.next()
        speed = try columns.next()
        chaptersURL = try columns.next()
        duration = try columns.next()
        codec = try columns.next()
        artPath = try columns.next()
        published = try columns.next()
        gone = try columns.next()
        problem = try columns.next()
        for tag in TextTag.allCases {
            let value: String? = try columns.next()
            if let value { more[tag] = value }
        }
    }

    /// The track table's columns as a query selects them for `init(row:)`, each prefixed with
    /// `table.` when given (a join, or a table renamed in the query).
    static func selection(of table: String? = nil) -> String {
        table.map { table in columns.map { "\(table).\($0)" }.joined(separator: ", ") } ?? allColumns
    }

    private static let allColumns = columns.joined(separator: ", ")

    /// The columns a track is written to, in the order of `values` (`scanMark` is the scan's).
    private static let columns = ["id", "url", "source", "folder", "size", "validator", "title", "artist", "album", "albumArtist",
                                  "genre", "trackNumber", "discNumber", "year", "trackGain", "trackPeak", "albumGain", "albumPeak",
                                  "resumeAt", "played", "speed", "chaptersURL", "duration", "codec", "artPath", "published", "gone", "problem"]
        + TextTag.allCases.map(\.rawValue)
    private static let insertSQL = "INSERT INTO track (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    private static let updateSQL = "UPDATE track SET \(columns.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"

    private var values: [any SQLiteConvertible] {
        [id, url, source, folder, size, validator, title, artist, album, albumArtist, genre, trackNumber, discNumber, year,
         trackGain, trackPeak, albumGain, albumPeak, resumeAt, played, speed, chaptersURL, duration, codec, artPath, published, gone, problem]
            + TextTag.allCases.map { more[$0] as any SQLiteConvertible }
    }

    /// Adds it as a new row (under its `id`, when it has one) and takes the row's id.
    mutating func insert(_ database: SQLiteConnection) throws {
        try database.execute(Self.insertSQL, values)
        id = database.lastInsertedRowID
    }

    /// Writes every column of the row with its `id`.
    func update(_ database: SQLiteConnection) throws {
        try database.execute(Self.updateSQL, Array(values.dropFirst()) + [id])
    }

    /// Its tags (without a picture: art is a file, `artPath`).
    package var tags: TrackTags {
        get {
            TrackTags(title: title, artist: artist, album: album, albumArtist: albumArtist, trackNumber: trackNumber, genre: genre,
                      year: year, discNumber: discNumber,
                      replayGain: ReplayGain(trackGain: trackGain, trackPeak: trackPeak, albumGain: albumGain, albumPeak: albumPeak),
                      more: more)
        }
        set {
            title = newValue.title
            artist = newValue.artist
            album = newValue.album
            albumArtist = newValue.albumArtist
            genre = newValue.genre
            trackNumber = newValue.trackNumber
            discNumber = newValue.discNumber
            year = newValue.year
            trackGain = newValue.replayGain.trackGain
            trackPeak = newValue.replayGain.trackPeak
            albumGain = newValue.replayGain.albumGain
            albumPeak = newValue.replayGain.albumPeak
            more = newValue.more
        }
    }

    /// What the queue, MPRIS and MPD show of it before it plays.
    package var metadata: TrackMetadata {
        TrackMetadata(tags: tags, duration: duration, resumeAt: resumeAt, played: played, speed: speed, chaptersURL: chaptersURL)
    }

    /// What to call it: its title, else its file name.
    package var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return TrackLocation(uri: url).displayName
    }
}
