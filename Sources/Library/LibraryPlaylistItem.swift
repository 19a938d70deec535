import GRDB

/// One line of a file or user playlist: a location, which need not be a scanned track (a
/// playlist may name a file on a server that is not a source).
package struct LibraryPlaylistItem: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "playlistItem"

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
}
