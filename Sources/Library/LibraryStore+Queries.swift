import FoundationEssentials
import SQLite

/// What the CLI, MPRIS Playlists and the player ask of the library.
extension LibraryStore {
    /// Full-text search over title, artist, album, album artist and genre: every word must be a
    /// word of the track's tags, the last one may be the start of one (it is being typed). The
    /// first `limit` matches, shown as `ls` orders tracks.
    ///
    /// Why it is fast on 100,000 tracks (measured): not ranked, as bm25 scores every match before
    /// the limit applies (15–80 ms for a broad query); whole words are read lazily where a prefix
    /// makes FTS5 merge the doclist of every word it starts first (`song* 0500* 001*` 9 ms, `song
    /// 0500 001*` 0.3 ms); the matches are a MATERIALIZED CTE, because SQLite otherwise flattens
    /// the subquery and sorts every match before the limit (35 ms for a word all tracks share);
    /// and the query is split into words by the index's own tokenizer, on this connection.
    func search(_ text: String, limit: Int) throws -> [LibraryTrack] {
        try read { db in
            guard let pattern = try Self.matchPattern(text, db) else { return [] }
            return try db.fetchAll("""
                WITH hit AS MATERIALIZED (
                    SELECT \(LibraryTrack.selection(of: "track")) FROM trackSearch JOIN track ON track.id = trackSearch.rowid
                    WHERE trackSearch MATCH ? AND track.gone = 0 LIMIT ?)
                SELECT * FROM hit ORDER BY artist COLLATE NOCASE, album, discNumber, trackNumber, url
                """, [pattern, limit], LibraryTrack.init(row:))
        }
    }

    func tracks(_ filter: TrackFilter, limit: Int, offset: Int = 0) throws -> [LibraryTrack] {
        var conditions: [String] = [], arguments: [any SQLiteConvertible] = []
        for (column, value) in [("artist", filter.artist), ("album", filter.album), ("title", filter.title)] {
            guard let value else { continue }
            conditions.append("\(column) LIKE ? ESCAPE '\\'")
            arguments.append("%\(TagQuerySQL.escapeLike(value))%")
        }
        if let source = filter.source {
            conditions.append("source = ?")
            arguments.append(source)
        }
        if !filter.includeGone { conditions.append("gone = 0") }
        let condition = conditions.isEmpty ? "" : "WHERE \(conditions.joined(separator: " AND ")) "
        return try read { db in
            try db.fetchAll("""
                SELECT \(LibraryTrack.selection()) FROM track \(condition)ORDER BY artist COLLATE \(LibraryCollation.name), album, discNumber, trackNumber, url
                LIMIT ? OFFSET ?
                """, arguments + [limit, offset], LibraryTrack.init(row:))
        }
    }

    func track(url: String) throws -> LibraryTrack? {
        try read { try $0.fetchOne("SELECT \(LibraryTrack.selection()) FROM track WHERE url = ?", [url], LibraryTrack.init(row:)) }
    }

    /// The tracks with these urls, by url; asked for in batches SQLite's variable limit allows.
    func tracks(urls: [String]) throws -> [String: LibraryTrack] {
        try read { db in
            var found: [String: LibraryTrack] = [:]
            for batch in Self.batches(urls) {
                for track in try db.fetchAll("SELECT \(LibraryTrack.selection()) FROM track WHERE url IN (\(Self.placeholders(batch.count)))", batch,
                                             LibraryTrack.init(row:)) {
                    found[track.url] = track
                }
            }
            return found
        }
    }

    /// Runs of at most 500 values: well under SQLite's limit of variables in one statement.
    static func batches<Value>(_ values: [Value]) -> [[Value]] {
        stride(from: 0, to: values.count, by: 500).map { Array(values[$0..<min($0 + 500, values.count)]) }
    }

    /// "?, ?, ?" for `count` values.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    func track(id: Int64) throws -> LibraryTrack? {
        try read { try $0.fetchOne("SELECT \(LibraryTrack.selection()) FROM track WHERE id = ?", [id], LibraryTrack.init(row:)) }
    }

    // MARK: Playlists

    func playlists(includeGone: Bool = false) throws -> [PlaylistSummary] {
        try read { db in
            let playlists = try db.fetchAll("SELECT * FROM playlist \(includeGone ? "" : "WHERE gone = 0 ")ORDER BY kind, name, id", [],
                                            LibraryPlaylist.init(row:))
            return try playlists.map { PlaylistSummary(playlist: $0, count: try Self.count(of: $0, db)) }
        }
    }

    private static func count(of playlist: LibraryPlaylist, _ db: SQLiteConnection) throws -> Int {
        switch playlist.kind {
        case .user, .file, .feed:
            return try db.fetchValue("SELECT COUNT(*) FROM playlistItem WHERE playlist = ?", [playlist.id]) ?? 0
        case .folder:
            return try db.fetchValue("SELECT COUNT(*) FROM track WHERE folder = ? AND gone = 0", [playlist.url]) ?? 0
        }
    }

    /// A playlist by id (digits) or by name; a name that several playlists share must be
    /// asked for by id.
    func playlist(_ reference: String) throws -> LibraryPlaylist {
        try read { db in
            if let id = Int64(reference), let found = try Self.playlist(id: id, db) { return found }
            let named = try db.fetchAll("SELECT * FROM playlist WHERE name = ? ORDER BY kind != 'user'", [reference], LibraryPlaylist.init(row:))
            if let own = named.first(where: { $0.kind == .user }) { return own }
            guard let first = named.first else { throw LibraryError.noSuchPlaylist(reference) }
            guard named.count == 1 else {
                throw LibraryError.badPlaylistName("\(named.count) playlists are named '\(reference)'; name one by its id (\(named.compactMap(\.id).map(String.init).joined(separator: ", ")))")
            }
            return first
        }
    }

    private static func playlist(id: Int64, _ db: SQLiteConnection) throws -> LibraryPlaylist? {
        try db.fetchOne("SELECT * FROM playlist WHERE id = ?", [id], LibraryPlaylist.init(row:))
    }

    /// The tracks of a playlist in play order: a file's or the user's as listed, a feed's as
    /// its scan listed them (newest first), a folder's by disc and track number.
    func entries(of playlist: LibraryPlaylist) throws -> [PlaylistEntry] {
        try read { db in
            switch playlist.kind {
            case .user, .file, .feed:
                let items = try db.fetchAll("SELECT * FROM playlistItem WHERE playlist = ? ORDER BY position", [playlist.id],
                                            LibraryPlaylistItem.init(row:))
                let known = try tracks(urls: items.map(\.url))
                return items.map { PlaylistEntry(url: $0.url, title: $0.title, track: known[$0.url]) }
            case .folder:
                return try db.fetchAll("SELECT \(LibraryTrack.selection()) FROM track WHERE folder = ? AND gone = 0 ORDER BY discNumber, trackNumber, url",
                                       [playlist.url], LibraryTrack.init(row:))
                    .map { PlaylistEntry(url: $0.url, title: $0.title, track: $0) }
            }
        }
    }

    func createPlaylist(named name: String) throws -> LibraryPlaylist {
        var rest = name.trimmingPrefix(while: \.isWhitespace)
        while rest.last?.isWhitespace == true { rest.removeLast() }
        let trimmed = String(rest)
        guard !trimmed.isEmpty, trimmed.count <= 200, Int64(trimmed) == nil,
              !trimmed.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw LibraryError.badPlaylistName("a playlist name is 1 to 200 characters on one line, and not only digits")
        }
        return try write { db in
            if try Self.userPlaylist(named: trimmed, db) {
                throw LibraryError.badPlaylistName("you already have a playlist named '\(trimmed)'")
            }
            var playlist = LibraryPlaylist(name: trimmed, kind: .user)
            try playlist.insert(db)
            return playlist
        }
    }

    /// One of the user's playlists read back from its M3U file into a new database, titles as
    /// the file has them; a name already taken is left as it is.
    func restorePlaylist(_ saved: PlaylistMirror.Playlist) throws {
        try write { db in
            guard try !Self.userPlaylist(named: saved.name, db) else { return }
            var playlist = LibraryPlaylist(name: saved.name, kind: .user)
            playlist.pinned = saved.pinned
            // Under its old id, so a client's reference still means this playlist.
            if let id = saved.id, try Self.playlist(id: id, db) == nil { playlist.id = id }
            try playlist.insert(db)
            guard let id = playlist.id else { return }
            for (position, entry) in saved.entries.enumerated() {
                try LibraryPlaylistItem(playlist: id, position: position, url: entry.url, title: entry.title).insert(db)
            }
        }
    }

    private static func userPlaylist(named name: String, _ db: SQLiteConnection) throws -> Bool {
        try db.fetchValue("SELECT 1 FROM playlist WHERE kind = 'user' AND name = ?", [name]) as Int? != nil
    }

    /// The user's own playlists, to write as M3U files.
    func userPlaylists() throws -> [LibraryPlaylist] {
        try read { try $0.fetchAll("SELECT * FROM playlist WHERE kind = 'user'", [], LibraryPlaylist.init(row:)) }
    }

    /// Deletes one of the user's playlists, and its items with it (their foreign key cascades).
    func deletePlaylist(_ playlist: LibraryPlaylist) throws {
        guard playlist.kind == .user else { throw LibraryError.notEditable(playlist.name) }
        try write { try $0.execute("DELETE FROM playlist WHERE id = ?", [playlist.id]) }
    }

    /// Appends locations to one of the user's playlists.
    func add(_ urls: [String], to playlist: LibraryPlaylist) throws {
        guard playlist.kind == .user, let id = playlist.id else { throw LibraryError.notEditable(playlist.name) }
        try write { db in
            var position = (try db.fetchValue("SELECT MAX(position) FROM playlistItem WHERE playlist = ?", [id]) ?? -1) + 1
            for url in urls {
                let title: String? = try db.fetchValue("SELECT title FROM track WHERE url = ?", [url])
                try LibraryPlaylistItem(playlist: id, position: position, url: url, title: title).insert(db)
                position += 1
            }
        }
    }

    /// Takes every line with one of these locations out of one of the user's playlists; returns
    /// how many went.
    func remove(_ urls: [String], from playlist: LibraryPlaylist) throws -> Int {
        guard playlist.kind == .user, let id = playlist.id else { throw LibraryError.notEditable(playlist.name) }
        return try write { db in
            var removed = 0
            for batch in Self.batches(urls) {
                removed += try db.execute("DELETE FROM playlistItem WHERE playlist = ? AND url IN (\(Self.placeholders(batch.count)))", [id] + batch)
            }
            // Positions stay dense, in order.
            let rest = try db.fetchAll("SELECT * FROM playlistItem WHERE playlist = ? ORDER BY position", [id], LibraryPlaylistItem.init(row:))
            try db.execute("DELETE FROM playlistItem WHERE playlist = ?", [id])
            for (position, var item) in rest.enumerated() {
                item.position = position
                try item.insert(db)
            }
            return removed
        }
    }

    func setPinned(_ pinned: Bool, _ playlist: LibraryPlaylist) throws {
        try write { try $0.execute("UPDATE playlist SET pinned = ? WHERE id = ?", [pinned, playlist.id]) }
    }

    /// Where a long track was left, whether it was heard to the end, and the speed chosen for it;
    /// nothing for a location the library does not know.
    func recordProgress(url: String, resumeAt: Double?, played: Bool, speed: Double?) throws {
        try write { try $0.execute("UPDATE track SET resumeAt = ?, played = ?, speed = ? WHERE url = ?", [resumeAt, played, speed, url]) }
    }

    /// Marks tracks played (or not), from their start either way; returns how many it found.
    func setPlayed(_ played: Bool, ids: [Int64]) throws -> Int {
        try write { db in
            try Self.batches(ids).reduce(0) { found, batch in
                try found + db.execute("UPDATE track SET played = ?, resumeAt = NULL WHERE id IN (\(Self.placeholders(batch.count)))", [played] + batch)
            }
        }
    }

    /// Every location in a pinned playlist: kept whole in the cache, never evicted.
    func pinnedURLs() throws -> [String] {
        let pinned = try read { try $0.fetchAll("SELECT * FROM playlist WHERE pinned = 1", [], LibraryPlaylist.init(row:)) }
        var urls: [String] = []
        for playlist in pinned { urls += try entries(of: playlist).map(\.url) }
        return urls
    }

    func summary(sources: [String]) throws -> LibrarySummary {
        try read { db in
            let tracks: Int = try db.fetchValue("SELECT COUNT(*) FROM track WHERE gone = 0") ?? 0
            let playlists: Int = try db.fetchValue("SELECT COUNT(*) FROM playlist WHERE gone = 0") ?? 0
            let perSource = try sources.map { name -> LibrarySummary.Source in
                let scan = try db.fetchOne("SELECT finished, problems FROM sourceScan WHERE source = ?", [name]) { row in
                    (finished: try row.get("finished") as Date?, problems: try row.get("problems") as String?)
                }
                return LibrarySummary.Source(
                    name: name,
                    tracks: try db.fetchValue("SELECT COUNT(*) FROM track WHERE source = ? AND gone = 0", [name]) ?? 0,
                    gone: try db.fetchValue("SELECT COUNT(*) FROM track WHERE source = ? AND gone = 1", [name]) ?? 0,
                    lastScan: scan?.finished, problems: scan?.problems)
            }
            return LibrarySummary(tracks: tracks, playlists: playlists, sources: perSource)
        }
    }
}
