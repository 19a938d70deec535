import Foundation
import GRDB

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
    /// and the query is tokenized on this connection (GRDB's `FTS5Pattern` opens two in-memory
    /// databases per call for it, 1.5 ms).
    func search(_ text: String, limit: Int) throws -> [LibraryTrack] {
        try read { db in
            let words = try db.makeTokenizer(.unicode61()).tokenize(query: text)
                .filter { !$0.flags.contains(.colocated) }.map { "\"" + $0.token.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            guard !words.isEmpty else { return [] }
            let pattern = words.joined(separator: " ") + "*"
            return try LibraryTrack.fetchAll(db, sql: """
                WITH hit AS MATERIALIZED (
                    SELECT track.* FROM trackSearch JOIN track ON track.id = trackSearch.rowid
                    WHERE trackSearch MATCH ? AND track.gone = 0 LIMIT ?)
                SELECT * FROM hit ORDER BY artist COLLATE NOCASE, album, discNumber, trackNumber, url
                """, arguments: [pattern, limit])
        }
    }

    func tracks(_ filter: TrackFilter, limit: Int, offset: Int = 0) throws -> [LibraryTrack] {
        try read { db in
            var request = LibraryTrack.all()
            for (column, value) in [("artist", filter.artist), ("album", filter.album), ("title", filter.title)] {
                if let value { request = request.filter(Column(column).like("%\(Self.escapeLike(value))%", escape: "\\")) }
            }
            if let source = filter.source { request = request.filter(Column("source") == source) }
            if !filter.includeGone { request = request.filter(Column("gone") == false) }
            return try request
                .order(Column("artist").collating(.localizedCaseInsensitiveCompare), Column("album"), Column("discNumber"),
                       Column("trackNumber"), Column("url"))
                .limit(limit, offset: offset)
                .fetchAll(db)
        }
    }

    private static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    func track(url: String) throws -> LibraryTrack? {
        try read { try LibraryTrack.filter(Column("url") == url).fetchOne($0) }
    }

    /// The tracks with these urls, by url; asked for in batches SQLite's variable limit allows.
    func tracks(urls: [String]) throws -> [String: LibraryTrack] {
        try read { db in
            var found: [String: LibraryTrack] = [:]
            for start in stride(from: 0, to: urls.count, by: 500) {
                let batch = urls[start..<min(start + 500, urls.count)]
                for track in try LibraryTrack.filter(batch.contains(Column("url"))).fetchAll(db) { found[track.url] = track }
            }
            return found
        }
    }

    func track(id: Int64) throws -> LibraryTrack? {
        try read { try LibraryTrack.fetchOne($0, key: id) }
    }

    // MARK: Playlists

    func playlists(includeGone: Bool = false) throws -> [PlaylistSummary] {
        try read { db in
            var request = LibraryPlaylist.all()
            if !includeGone { request = request.filter(Column("gone") == false) }
            let playlists = try request.order(Column("kind"), Column("name"), Column("id")).fetchAll(db)
            return try playlists.map { PlaylistSummary(playlist: $0, count: try Self.count(of: $0, db)) }
        }
    }

    private static func count(of playlist: LibraryPlaylist, _ db: Database) throws -> Int {
        switch playlist.kind {
        case .user, .file, .feed:
            return try LibraryPlaylistItem.filter(Column("playlist") == playlist.id).fetchCount(db)
        case .folder:
            return try LibraryTrack.filter(Column("folder") == playlist.url && Column("gone") == false).fetchCount(db)
        }
    }

    /// A playlist by id (digits) or by name; a name that several playlists share must be
    /// asked for by id.
    func playlist(_ reference: String) throws -> LibraryPlaylist {
        try read { db in
            if let id = Int64(reference), let found = try LibraryPlaylist.fetchOne(db, key: id) { return found }
            let named = try LibraryPlaylist.filter(Column("name") == reference).order(Column("kind") != "user").fetchAll(db)
            if let own = named.first(where: { $0.kind == .user }) { return own }
            guard let first = named.first else { throw LibraryError.noSuchPlaylist(reference) }
            guard named.count == 1 else {
                throw LibraryError.badPlaylistName("\(named.count) playlists are named '\(reference)'; name one by its id (\(named.compactMap(\.id).map(String.init).joined(separator: ", ")))")
            }
            return first
        }
    }

    /// The tracks of a playlist in play order: a file's or the user's as listed, a feed's as
    /// its scan listed them (newest first), a folder's by disc and track number.
    func entries(of playlist: LibraryPlaylist) throws -> [PlaylistEntry] {
        try read { db in
            switch playlist.kind {
            case .user, .file, .feed:
                let items = try LibraryPlaylistItem.filter(Column("playlist") == playlist.id).order(Column("position")).fetchAll(db)
                let urls = items.map(\.url)
                let known = Dictionary(try LibraryTrack.filter(urls.contains(Column("url"))).fetchAll(db).map { ($0.url, $0) },
                                       uniquingKeysWith: { first, _ in first })
                return items.map { PlaylistEntry(url: $0.url, title: $0.title, track: known[$0.url]) }
            case .folder:
                return try LibraryTrack.filter(Column("folder") == playlist.url && Column("gone") == false)
                    .order(Column("discNumber"), Column("trackNumber"), Column("url")).fetchAll(db)
                    .map { PlaylistEntry(url: $0.url, title: $0.title, track: $0) }
            }
        }
    }

    func createPlaylist(named name: String) throws -> LibraryPlaylist {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 200, Int64(trimmed) == nil,
              !trimmed.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw LibraryError.badPlaylistName("a playlist name is 1 to 200 characters on one line, and not only digits")
        }
        return try write { db in
            if try LibraryPlaylist.filter(Column("kind") == "user" && Column("name") == trimmed).fetchCount(db) > 0 {
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
            guard try LibraryPlaylist.filter(Column("kind") == "user" && Column("name") == saved.name).fetchCount(db) == 0 else { return }
            var playlist = LibraryPlaylist(name: saved.name, kind: .user)
            playlist.pinned = saved.pinned
            // Under its old id, so a client's reference still means this playlist.
            if let id = saved.id, try LibraryPlaylist.fetchOne(db, key: id) == nil { playlist.id = id }
            try playlist.insert(db)
            guard let id = playlist.id else { return }
            for (position, entry) in saved.entries.enumerated() {
                try LibraryPlaylistItem(playlist: id, position: position, url: entry.url, title: entry.title).insert(db)
            }
        }
    }

    /// The user's own playlists, to write as M3U files.
    func userPlaylists() throws -> [LibraryPlaylist] {
        try read { try LibraryPlaylist.filter(Column("kind") == "user").fetchAll($0) }
    }

    func deletePlaylist(_ playlist: LibraryPlaylist) throws {
        guard playlist.kind == .user else { throw LibraryError.notEditable(playlist.name) }
        _ = try write { try LibraryPlaylist.deleteOne($0, key: playlist.id) }
    }

    /// Appends locations to one of the user's playlists.
    func add(_ urls: [String], to playlist: LibraryPlaylist) throws {
        guard playlist.kind == .user, let id = playlist.id else { throw LibraryError.notEditable(playlist.name) }
        try write { db in
            var position = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM playlistItem WHERE playlist = ?", arguments: [id]) ?? -1) + 1
            for url in urls {
                let title = try String.fetchOne(db, sql: "SELECT title FROM track WHERE url = ?", arguments: [url])
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
            let removed = try LibraryPlaylistItem.filter(Column("playlist") == id && urls.contains(Column("url"))).deleteAll(db)
            // Positions stay dense, in order.
            let rest = try LibraryPlaylistItem.filter(Column("playlist") == id).order(Column("position")).fetchAll(db)
            try LibraryPlaylistItem.filter(Column("playlist") == id).deleteAll(db)
            for (position, var item) in rest.enumerated() {
                item.position = position
                try item.insert(db)
            }
            return removed
        }
    }

    func setPinned(_ pinned: Bool, _ playlist: LibraryPlaylist) throws {
        try write { try $0.execute(sql: "UPDATE playlist SET pinned = ? WHERE id = ?", arguments: [pinned, playlist.id]) }
    }

    /// Where a long track was left, and whether it was heard to the end; nothing for a
    /// location the library does not know.
    func recordProgress(url: String, resumeAt: Double?, played: Bool) throws {
        try write { try $0.execute(sql: "UPDATE track SET resumeAt = ?, played = ? WHERE url = ?", arguments: [resumeAt, played, url]) }
    }

    /// Marks tracks played (or not), from their start either way; returns how many it found.
    func setPlayed(_ played: Bool, ids: [Int64]) throws -> Int {
        try write { db in
            try LibraryTrack.filter(keys: ids).updateAll(db, Column("played").set(to: played), Column("resumeAt").set(to: nil))
        }
    }

    /// Every location in a pinned playlist: kept whole in the cache, never evicted.
    func pinnedURLs() throws -> [String] {
        let pinned = try read { try LibraryPlaylist.filter(Column("pinned") == true).fetchAll($0) }
        var urls: [String] = []
        for playlist in pinned { urls += try entries(of: playlist).map(\.url) }
        return urls
    }

    func summary(sources: [String]) throws -> LibrarySummary {
        try read { db in
            let tracks = try LibraryTrack.filter(Column("gone") == false).fetchCount(db)
            let playlists = try LibraryPlaylist.filter(Column("gone") == false).fetchCount(db)
            let perSource = try sources.map { name -> LibrarySummary.Source in
                let row = try Row.fetchOne(db, sql: "SELECT finished, problems FROM sourceScan WHERE source = ?", arguments: [name])
                return LibrarySummary.Source(
                    name: name,
                    tracks: try LibraryTrack.filter(Column("source") == name && Column("gone") == false).fetchCount(db),
                    gone: try LibraryTrack.filter(Column("source") == name && Column("gone") == true).fetchCount(db),
                    lastScan: row?["finished"], problems: row?["problems"])
            }
            return LibrarySummary(tracks: tracks, playlists: playlists, sources: perSource)
        }
    }
}
