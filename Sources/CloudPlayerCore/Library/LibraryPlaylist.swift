import Foundation
import GRDB

/// A playlist: the user's own, a playlist file found in a source, a podcast feed, or a folder.
/// File and user playlists keep their items; a folder's and a feed's items are its tracks.
public struct LibraryPlaylist: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "playlist"

    public enum Kind: String, Codable, Sendable, CaseIterable {
        case user, file, feed, folder
    }

    public var id: Int64?
    public var name: String
    public var kind: Kind
    /// The source it was found in; nil for the user's own.
    public var source: String?
    /// The playlist file, feed or folder; nil for the user's own.
    public var url: String?
    /// A playlist file's or feed's validator, for incremental rescans.
    public var validator: String?
    /// Kept wholly downloaded for offline use; its bytes are never evicted.
    public var pinned: Bool
    public var gone: Bool

    public init(name: String, kind: Kind, source: String? = nil, url: String? = nil) {
        self.name = name
        self.kind = kind
        self.source = source
        self.url = url
        pinned = false
        gone = false
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
