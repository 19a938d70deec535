import Foundation
import GRDB

/// A playlist: the user's own, a playlist file found in a source, a podcast feed, or a folder.
/// File and user playlists keep their items; a folder's and a feed's items are its tracks.
package struct LibraryPlaylist: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "playlist"

    package enum Kind: String, Codable, Sendable, CaseIterable {
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

    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
