import SQLite

/// What the desktop's search (GNOME Shell, KRunner) asks of the library beyond tracks: artists,
/// albums and playlists whose names hold the words typed, and the tracks of an artist or an album
/// to play. Each look-up reads a bounded number of index hits, so it stays fast however large
/// the library (GNOME Shell asks at every key stroke).
extension LibraryStore {
    /// How many index hits a group search reads before grouping them: bounds the work of a word
    /// every track shares, at the cost of groups past the first few thousand hits.
    static let groupHitLimit = 2000

    /// `text` as an FTS5 query of the search index: every word a word of the tags, the last the
    /// start of one (it is being typed); split by the index's own tokenizer. Nil without words.
    static func matchPattern(_ text: String, _ db: SQLiteConnection) throws -> String? {
        let words = try db.tokens(of: text, tokenizer: LibrarySchema.searchTokenizer).map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
        return words.isEmpty ? nil : words.joined(separator: " ") + "*"
    }

    /// Artists whose name holds every word of `text`, by name; each with one of its tracks (one
    /// with cover art where any has).
    func artists(matching text: String, limit: Int) throws -> [LibraryGroup] {
        try read { db in
            guard let pattern = try Self.matchPattern(text, db) else { return [] }
            return try db.fetchAll("""
                WITH hit AS MATERIALIZED (
                    SELECT track.id, track.artist, track.artPath FROM trackSearch JOIN track ON track.id = trackSearch.rowid
                    WHERE trackSearch MATCH ? AND track.gone = 0 AND track.artist IS NOT NULL LIMIT ?)
                SELECT MAX(artPath) AS artPath, id, artist FROM hit GROUP BY artist ORDER BY artist COLLATE NOCASE LIMIT ?
                """, ["artist : (\(pattern))", Self.groupHitLimit, limit]) { row in
                LibraryGroup(kind: .artist, name: try row.get("artist"), artist: nil, trackID: try row.get("id"), artPath: try row.get("artPath"))
            }
        }
    }

    /// Albums whose title and artists hold every word of `text` ("abbey beatles" finds Abbey
    /// Road), by title; an album is its title and album artist (else artist).
    func albums(matching text: String, limit: Int) throws -> [LibraryGroup] {
        try read { db in
            guard let pattern = try Self.matchPattern(text, db) else { return [] }
            return try db.fetchAll("""
                WITH hit AS MATERIALIZED (
                    SELECT track.id, track.album, COALESCE(track.albumArtist, track.artist) AS who, track.artPath
                    FROM trackSearch JOIN track ON track.id = trackSearch.rowid
                    WHERE trackSearch MATCH ? AND track.gone = 0 AND track.album IS NOT NULL LIMIT ?)
                SELECT MAX(artPath) AS artPath, id, album, who FROM hit GROUP BY album, who ORDER BY album COLLATE NOCASE, who LIMIT ?
                """, ["{album artist albumArtist} : (\(pattern))", Self.groupHitLimit, limit]) { row in
                LibraryGroup(kind: .album, name: try row.get("album"), artist: try row.get("who"), trackID: try row.get("id"),
                             artPath: try row.get("artPath"))
            }
        }
    }

    /// The tracks of the artist or album `trackID` stands for, in play order: an artist's album
    /// by album, an album's by disc and number. At most `limit`.
    func tracks(of kind: LibraryGroup.Kind, standingFor trackID: Int64, limit: Int) throws -> [LibraryTrack] {
        try read { db in
            switch kind {
            case .artist:
                return try db.fetchAll("""
                    SELECT \(LibraryTrack.selection(of: "track")) FROM track, (SELECT artist AS wanted FROM track WHERE id = ?)
                    WHERE track.artist = wanted AND track.gone = 0
                    ORDER BY album COLLATE NOCASE, discNumber, trackNumber, url LIMIT ?
                    """, [trackID, limit], LibraryTrack.init(row:))
            case .album:
                return try db.fetchAll("""
                    SELECT \(LibraryTrack.selection(of: "track")) FROM track, (SELECT album AS wanted, COALESCE(albumArtist, artist) AS who FROM track WHERE id = ?)
                    WHERE track.album = wanted AND COALESCE(track.albumArtist, track.artist) IS who AND track.gone = 0
                    ORDER BY discNumber, trackNumber, url LIMIT ?
                    """, [trackID, limit], LibraryTrack.init(row:))
            }
        }
    }

    /// Playlists (the user's, playlist files, feeds: a folder is an album already) whose name
    /// holds every word of `text`, without case, by name.
    func playlists(matching text: String, limit: Int) throws -> [LibraryPlaylist] {
        let words = text.split(whereSeparator: \.isWhitespace).prefix(16)
        guard !words.isEmpty else { return [] }
        let conditions = Array(repeating: " AND name LIKE ? ESCAPE '\\'", count: words.count).joined()
        return try read { db in
            try db.fetchAll("SELECT * FROM playlist WHERE gone = 0 AND kind != 'folder'\(conditions) ORDER BY name COLLATE NOCASE, id LIMIT ?",
                            words.map { "%\(TagQuerySQL.escapeLike(String($0)))%" as any SQLiteConvertible } + [limit], LibraryPlaylist.init(row:))
        }
    }

    func recordArtwork(url: String, file: String) throws {
        try write { try $0.execute("UPDATE track SET artPath = ? WHERE url = ? AND artPath IS NOT ?", [file, url, file]) }
    }
}
