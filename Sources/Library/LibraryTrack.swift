import Foundation
import GRDB
import Model

/// A track the library knows: where it is, what the server said of it (so a rescan can tell
/// whether it changed) and what its tags say. `gone`: it was not found by the last scan of its
/// source — kept (a playlist may name it) but shown as gone, never silently.
package struct LibraryTrack: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "track"

    package var id: Int64?
    package var url: String
    /// The `[[source]]` it was found in.
    package var source: String
    /// The folder (or feed) it was found in: a folder playlist is the tracks of one folder.
    package var folder: String
    package var size: Int64?
    /// ETag, else Last-Modified: unchanged means its tags need no second reading.
    package var validator: String?
    package var title: String?
    package var artist: String?
    package var album: String?
    package var albumArtist: String?
    package var genre: String?
    package var trackNumber: Int?
    package var discNumber: Int?
    package var year: Int?
    /// ReplayGain tags (dB, and peaks as fractions of full scale).
    package var trackGain: Double?
    package var trackPeak: Double?
    package var albumGain: Double?
    package var albumPeak: Double?
    /// Where a long track was left; whether it was heard to the end.
    package var resumeAt: Double?
    package var played = false
    package var duration: Double?
    package var codec: String?
    /// Embedded cover art, as a file in the cache (for `mpris:artUrl`).
    package var artPath: String?
    /// A feed episode's date: feeds list newest first.
    package var published: Date?
    package var gone: Bool
    /// Why its tags could not be read, if they could not.
    package var problem: String?

    package init(url: String, source: String, folder: String) {
        self.url = url
        self.source = source
        self.folder = folder
        gone = false
    }

    /// Read column by column (a value of the wrong type throws, as with `Decodable`): GRDB's
    /// `Decodable` path was most of a 50-track search answer's time (perf on `bench/library`).
    package init(row: Row) throws {
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
        trackGain = try row.decode(forColumn: "trackGain")
        trackPeak = try row.decode(forColumn: "trackPeak")
        albumGain = try row.decode(forColumn: "albumGain")
        albumPeak = try row.decode(forColumn: "albumPeak")
        resumeAt = try row.decode(forColumn: "resumeAt")
        played = try row.decode(forColumn: "played")
        duration = try row.decode(forColumn: "duration")
        codec = try row.decode(forColumn: "codec")
        artPath = try row.decode(forColumn: "artPath")
        published = try row.decode(forColumn: "published")
        gone = try row.decode(forColumn: "gone")
        problem = try row.decode(forColumn: "problem")
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Its tags (without a picture: art is a file, `artPath`).
    package var tags: TrackTags {
        get {
            TrackTags(title: title, artist: artist, album: album, albumArtist: albumArtist, trackNumber: trackNumber, genre: genre,
                      year: year, discNumber: discNumber,
                      replayGain: ReplayGain(trackGain: trackGain, trackPeak: trackPeak, albumGain: albumGain, albumPeak: albumPeak))
        }
        set {
            title = newValue.title
            artist = newValue.artist
            album = newValue.album
            albumArtist = newValue.albumArtist
            genre = newValue.genre
            trackNumber = newValue.trackNumber
            discNumber = newValue.discNumber
            year = newValue.year
            trackGain = newValue.replayGain.trackGain
            trackPeak = newValue.replayGain.trackPeak
            albumGain = newValue.replayGain.albumGain
            albumPeak = newValue.replayGain.albumPeak
        }
    }

    /// What to call it: its title, else its file name.
    package var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return TrackLocation(uri: url).displayName
    }
}
