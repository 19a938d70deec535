import Base
import FoundationEssentials
import Glibc
import SQLite

/// The library's SQLite database: tracks, playlists and scan bookkeeping. Its calls block on
/// disk I/O, so only `LibraryActor` uses it, on that actor's own thread — the one thread its
/// connection is ever used from.
package final class LibraryStore {
    let path: String
    private let database: SQLiteConnection
    /// Made by this open (no tables before): the user's playlists are read back into it.
    let fresh: Bool
    /// This open's number in the process (`LibraryEdition.store`): a database rebuilt after
    /// damage counts its changes from nothing again, and its editions must not pass for the old one's.
    let number: Int
    private static let opened = Locked(0)

    /// SQLite as loaded at run time, for `cloudplayerd --version`.
    package static var sqliteVersion: String? { "SQLite \(SQLiteConnection.version)" }

    /// `$XDG_DATA_HOME/cloudplayerd/library.sqlite`.
    static var defaultFile: URL { XDGDirectories.data.appendingPathComponent("library.sqlite") }

    /// Opens (or creates) the database. One written by a newer cloudplayerd is refused and left
    /// as it is; a damaged one is refused as `.damaged` (see `LibraryStore+Damage`); the folder is the user's alone (0700), and so is the file (0600).
    init(file: URL) throws(LibraryError) {
        if let damage = Self.damageOnDisk(at: file.path) { throw .damaged(path: file.path, reason: damage) }
        path = file.path
        number = Self.opened.withLock { count in
            count += 1
            return count
        }
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // Made the user's alone before SQLite opens it, as its -journal, -wal and -shm files
            // take its mode. (A umask around the open was the whole process's: files other threads
            // made meanwhile — a test's WebDAV folder served by another user — came out 0600 too.)
            let made = open(file.path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            if made >= 0 { Glibc.close(made) }
            database = try SQLiteConnection(path: file.path, busyTimeout: .seconds(5))
        } catch {
            if let damage = Self.damage(error) { throw .damaged(path: file.path, reason: damage) }
            throw .cannotOpen(path: file.path, reason: "\(error)")
        }
        let migrator = LibrarySchema.migrator
        do {
            try Self.check(database, path: file.path)
            fresh = try database.fetchValue("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'track'") as Int? == nil
            if try migrator.isSuperseded(database) { throw LibraryError.newerDatabase(path: file.path) }
            // WAL, and a sync at checkpoints rather than at every commit: a scan commits a few
            // times per folder. Set only now, so a newer version's file is never touched. Its
            // -wal and -shm files take the database file's mode (0600).
            try database.execute(script: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            try migrator.migrate(database)
            try LibraryCollation.register(on: database)
            try LibraryRegex.register(on: database)
        } catch let error as LibraryError {
            database.close()
            throw error
        } catch {
            database.close()
            if let damage = Self.damage(error) { throw .damaged(path: file.path, reason: damage) }
            throw .cannotOpen(path: file.path, reason: "\(error)")
        }
    }

    /// Closes the connection, so that nothing of it (a checkpoint, the deletion of its `-wal` at
    /// close) touches the files once they are moved aside and a new database has their names.
    func close() {
        database.close()
    }

    /// Runs `body` in one read transaction: its queries see one state of the database. Inside
    /// another transaction, in that one.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if database.isInTransaction { return try body(database) }
        return try database.transaction(.deferred) { try body(database) }
    }

    /// Runs `body` in one write transaction: all of it is written, or none (it throws).
    @discardableResult
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if database.isInTransaction { return try body(database) }
        return try database.transaction(.immediate) { try body(database) }
    }

    // MARK: Scanning

    /// Starts a scan of `source`: the mark its sightings carry.
    func beginScan(of source: String) throws -> Int64 {
        try write { db in
            let last: Int64 = try db.fetchValue("SELECT mark FROM sourceScan WHERE source = ?", [source]) ?? 0
            let mark = last + 1
            try db.execute("""
                INSERT INTO sourceScan (source, mark) VALUES (?, ?)
                ON CONFLICT(source) DO UPDATE SET mark = excluded.mark
                """, [source, mark])
            return mark
        }
    }

    /// The tracks known in `folder`, by URL: a rescan reads tags only of those that changed.
    func tracks(inFolder folder: String) throws -> [String: LibraryTrack] {
        try read { db in
            let tracks = try db.fetchAll("SELECT \(LibraryTrack.selection()) FROM track WHERE folder = ?", [folder], LibraryTrack.init(row:))
            return Dictionary(tracks.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Records a folder's tracks as seen by the scan with `mark`: those whose tags were `read`
    /// (new or changed) whole, the `unchanged` ones (by id) only as seen — a rescan of an
    /// unchanged library writes one small row update per track and no search index.
    func save(_ read: [LibraryTrack], unchanged: [Int64], mark: Int64) throws {
        guard !read.isEmpty || !unchanged.isEmpty else { return }
        try write { db in
            for id in unchanged { try db.execute("UPDATE track SET scanMark = ?, gone = 0 WHERE id = ?", [mark, id]) }
            for var track in read {
                track.gone = false
                if let id = try db.fetchValue("SELECT id FROM track WHERE url = ?", [track.url]) as Int64? {
                    track.id = id
                    try track.update(db)
                } else {
                    track.id = nil
                    try track.insert(db)
                }
                try db.execute("UPDATE track SET scanMark = ? WHERE url = ?", [mark, track.url])
            }
        }
    }

    /// Records a playlist found by the scan (a file, a feed, a folder) with its items.
    func savePlaylist(_ playlist: LibraryPlaylist, items: [LibraryPlaylistItem]?, mark: Int64) throws {
        try write { db in
            var playlist = playlist
            playlist.gone = false
            if let url = playlist.url, let known = try self.playlist(url: url) {
                playlist.id = known.id
                playlist.pinned = known.pinned
                try playlist.update(db)
            } else {
                try playlist.insert(db)
            }
            guard let id = playlist.id else { return }
            try db.execute("UPDATE playlist SET scanMark = ? WHERE id = ?", [mark, id])
            if let items {
                try db.execute("DELETE FROM playlistItem WHERE playlist = ?", [id])
                for (position, item) in items.enumerated() {
                    try LibraryPlaylistItem(playlist: id, position: position, url: item.url, title: item.title).insert(db)
                }
            }
        }
    }

    /// A playlist found earlier at `url`, to ask its server whether it changed.
    func playlist(url: String) throws -> LibraryPlaylist? {
        try read { try $0.fetchOne("SELECT * FROM playlist WHERE url = ?", [url], LibraryPlaylist.init(row:)) }
    }

    /// Keeps a playlist (unchanged on the server) as seen by this scan.
    func sight(playlist id: Int64, mark: Int64) throws {
        try write { try $0.execute("UPDATE playlist SET scanMark = ?, gone = 0 WHERE id = ?", [mark, id]) }
    }

    /// Keeps the tracks of a folder or feed (unchanged on the server) as seen by this scan.
    func sightTracks(inFolder folder: String, mark: Int64) throws {
        // Tracks already gone stay gone: an unchanged feed does not bring back old episodes.
        try write { try $0.execute("UPDATE track SET scanMark = ? WHERE folder = ? AND gone = 0", [mark, folder]) }
    }

    /// How many folders the last finished scan of `source` listed; nil if none finished with any.
    func foldersListed(by source: String) throws -> Int? {
        try read { db in
            let folders: Int64? = try db.fetchValue("SELECT folders FROM sourceScan WHERE source = ? AND finished IS NOT NULL", [source])
            return folders.flatMap { $0 > 0 ? Int($0) : nil }
        }
    }

    /// Forgets what the last scans of `sources` found wrong: their settings changed, so it may
    /// no longer be true (an old URL's error), and the next scan says what is.
    func forgetScanProblems(of sources: [String]) throws {
        guard !sources.isEmpty else { return }
        try write { db in
            for source in sources { try db.execute("UPDATE sourceScan SET problems = NULL WHERE source = ?", [source]) }
        }
    }

    /// Ends a scan. When every folder was listed, what it did not see is marked gone; returns
    /// how many tracks that was.
    func finishScan(of source: String, mark: Int64, folders: Int, complete: Bool, problems: [String]) throws -> Int {
        try write { db in
            var gone = 0
            if complete {
                gone = try db.execute("UPDATE track SET gone = 1 WHERE source = ? AND scanMark != ? AND gone = 0", [source, mark])
                try db.execute("UPDATE playlist SET gone = 1 WHERE source = ? AND scanMark != ? AND kind != 'user'", [source, mark])
            }
            try db.execute("UPDATE sourceScan SET finished = ?, folders = ?, problems = ? WHERE source = ?",
                           [Date(), folders, problems.isEmpty ? String?.none : problems.joined(separator: "\n"), source])
            return gone
        }
    }
}
