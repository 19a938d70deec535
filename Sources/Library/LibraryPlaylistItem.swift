import SQLite

/// One line of a file or user playlist: a location, which need not be a scanned track (a
/// playlist may name a file on a server that is not a source).
package struct LibraryPlaylistItem: Sendable, Equatable {
    package var playlist: Int64
    package var position: Int
    package var url: String
    package var title: String?

    package init(playlist: Int64, position: Int, url: String, title: String? = nil) {
        self.playlist = playlist
        self.position = position
        self.url = url
        self.title = title
    }

    /// Read from a `SELECT *` of the playlistItem table.
    init(row: SQLiteRow) throws {
        playlist = try row.get("playlist")
        position = try row.get("position")
        url = try row.get("url")
        title = try row.get("title")
    }

    func insert(_ database: SQLiteConnection) throws {
        try database.execute("INSERT INTO playlistItem (playlist, position, url, title) VALUES (?, ?, ?, ?)", [playlist, position, url, title])
    }
}
