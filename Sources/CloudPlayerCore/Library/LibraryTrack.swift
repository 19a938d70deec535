import Foundation
import GRDB

/// A track the library knows: where it is, what the server said of it (so a rescan can tell
/// whether it changed) and what its tags say. `gone`: it was not found by the last scan of its
/// source — kept (a playlist may name it) but shown as gone, never silently.
public struct LibraryTrack: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "track"

    public var id: Int64?
    public var url: String
    /// The `[[source]]` it was found in.
    public var source: String
    /// The folder (or feed) it was found in: a folder playlist is the tracks of one folder.
    public var folder: String
    public var size: Int64?
    /// ETag, else Last-Modified: unchanged means its tags need no second reading.
    public var validator: String?
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var genre: String?
    public var trackNumber: Int?
    public var discNumber: Int?
    public var year: Int?
    public var duration: Double?
    public var codec: String?
    /// Embedded cover art, as a file in the cache (for `mpris:artUrl`).
    public var artPath: String?
    /// A feed episode's date: feeds list newest first.
    public var published: Date?
    public var gone: Bool
    /// Why its tags could not be read, if they could not.
    public var problem: String?

    public init(url: String, source: String, folder: String) {
        self.url = url
        self.source = source
        self.folder = folder
        gone = false
    }

    /// Read column by column (a value of the wrong type throws, as with `Decodable`): GRDB's
    /// `Decodable` path was most of a 50-track search answer's time (perf on `bench/library`).
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        url = try row.decode(forColumn: "url")
        source = try row.decode(forColumn: "source")
        folder = try row.decode(forColumn: "folder")
        size = try row.decode(forColumn: "size")
        validator = try row.decode(forColumn: "validator")
        title = try row.decode(forColumn: "title")
        artist = try row.decode(forColumn: "artist")
        album = try row.decode(forColumn: "album")
        albumArtist = try row.decode(forColumn: "albumArtist")
        genre = try row.decode(forColumn: "genre")
        trackNumber = try row.decode(forColumn: "trackNumber")
        discNumber = try row.decode(forColumn: "discNumber")
        year = try row.decode(forColumn: "year")
        duration = try row.decode(forColumn: "duration")
        codec = try row.decode(forColumn: "codec")
        artPath = try row.decode(forColumn: "artPath")
        published = try row.decode(forColumn: "published")
        gone = try row.decode(forColumn: "gone")
        problem = try row.decode(forColumn: "problem")
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// What to call it: its title, else its file name.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return URL(string: url)?.lastPathComponent.removingPercentEncoding ?? url
    }
}
