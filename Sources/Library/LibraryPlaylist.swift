import SQLite

/// A playlist: the user's own, a playlist file found in a source, a podcast feed, or a folder.
/// File and user playlists keep their items; a folder's and a feed's items are its tracks.
package struct LibraryPlaylist: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable, SQLiteConvertible {
        case user, file, feed, folder
    }

    package var id: Int64?
    package var name: String
    package var kind: Kind
    /// The source it was found in; nil for the user's own.
    package var source: String?
    /// The playlist file, feed or folder; nil for the user's own.
    package var url: String?
    /// A playlist file's or feed's validator, for incremental rescans.
    package var validator: String?
    /// Kept wholly downloaded for offline use; its bytes are never evicted.
    package var pinned: Bool
    package var gone: Bool

    package init(name: String, kind: Kind, source: String? = nil, url: String? = nil) {
        self.name = name
        self.kind = kind
        self.source = source
        self.url = url
        pinned = false
        gone = false
    }

    /// Read from a `SELECT *` of the playlist table.
    init(row: SQLiteRow) throws {
        id = try row.get("id")
        name = try row.get("name")
        kind = try row.get("kind")
        source = try row.get("source")
        url = try row.get("url")
        validator = try row.get("validator")
        pinned = try row.get("pinned")
        gone = try row.get("gone")
    }

    /// Adds it as a new row (under its `id`, when it has one) and takes the row's id.
    mutating func insert(_ database: SQLiteConnection) throws {
        try database.execute("INSERT INTO playlist (id, name, kind, source, url, validator, pinned, gone) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [id, name, kind, source, url, validator, pinned, gone])
        id = database.lastInsertedRowID
    }

    /// Writes every column of the row with its `id`.
    func update(_ database: SQLiteConnection) throws {
        try database.execute("UPDATE playlist SET name = ?, kind = ?, source = ?, url = ?, validator = ?, pinned = ?, gone = ? WHERE id = ?",
                             [name, kind, source, url, validator, pinned, gone, id])
    }
}
