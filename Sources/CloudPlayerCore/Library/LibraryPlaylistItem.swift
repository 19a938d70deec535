import GRDB

/// One line of a file or user playlist: a location, which need not be a scanned track (a
/// playlist may name a file on a server that is not a source).
public struct LibraryPlaylistItem: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "playlistItem"

    public var playlist: Int64
    public var position: Int
    public var url: String
    public var title: String?

    public init(playlist: Int64, position: Int, url: String, title: String? = nil) {
        self.playlist = playlist
        self.position = position
        self.url = url
        self.title = title
    }
}
