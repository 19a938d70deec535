import Base
import FoundationEssentials
import Logging

/// A damaged database is set aside and replaced, not served: noticed when it is opened, before
/// each request (the file under the connection is checked), and when SQLite reports damage.
extension LibraryActor {
    /// Runs a request on the database. If the file turns out damaged, a new database takes its
    /// place and the request runs once more on that one.
    func checked<T>(_ body: (LibraryStore) throws -> T) throws -> T {
        let current = try database
        if let damage = LibraryStore.damageOnDisk(at: current.path) {
            try rebuild(after: damage, closing: current)
            return try body(try database)
        }
        do {
            return try body(current)
        } catch {
            guard let damage = LibraryStore.damage(error) else { throw error }
            try rebuild(after: damage, closing: current)
            return try body(try database)
        }
    }

    /// Sets `handler` to rescan the sources after a rebuild, and runs it now if one happened
    /// before the daemon could scan (at start).
    package func whenRebuilt(_ handler: @escaping @Sendable () async -> Void) {
        rescan = handler
        startPendingRescan()
    }

    /// Moves the damaged file (with its `-wal` and `-shm`) aside as `library.sqlite.damaged-DATE`,
    /// says so once in the log, makes a new database with the user's playlists read back from
    /// their M3U files, and asks for a rescan of the sources. Nothing is deleted.
    func rebuild(after reason: String, closing old: LibraryStore?) throws(LibraryError) {
        guard let file else { throw LibraryError.cannotOpen(path: "", reason: "not opened") }
        old?.close()
        let aside: URL
        do {
            aside = try DamagedFile.setAside(file, companions: ["-wal", "-shm"])
        } catch {
            logger.error("the library \(file.path) is damaged (\(reason)) and \(error); library requests fail until it is moved away")
            store = .failure(.damaged(path: file.path, reason: reason))
            throw LibraryError.damaged(path: file.path, reason: reason)
        }
        logger.warning("the library \(file.path) is damaged (\(reason)); set aside as \(aside.lastPathComponent), a new one is made with your playlists and the sources are scanned again")
        do {
            adopt(try LibraryStore(file: file))
        } catch {
            store = .failure(error)
            throw error
        }
        rescanPending = true
        startPendingRescan()
    }

    /// Takes an opened database: a new one gets the user's playlists from their M3U files; an
    /// older one writes its playlists out, so a library from before the files has them too.
    func adopt(_ opened: LibraryStore) {
        store = .success(opened)
        guard let mirror else { return }
        do {
            if opened.fresh {
                for playlist in mirror.read() { try opened.restorePlaylist(playlist) }
            } else {
                for playlist in try opened.userPlaylists() { try mirrorPlaylist(playlist, in: opened) }
            }
        } catch {
            logger.warning("playlists not kept as M3U files in \(mirror.folder.path): \(error)")
        }
    }

    /// Writes one of the user's playlists as its M3U file, unless the file says the same.
    func mirrorPlaylist(_ playlist: LibraryPlaylist, in store: LibraryStore) throws {
        guard let mirror, playlist.kind == .user else { return }
        try mirror.write(PlaylistMirror.Playlist(name: playlist.name, id: playlist.id, pinned: playlist.pinned,
                                                 entries: try store.entries(of: playlist)))
    }

    /// After a change of one of the user's playlists: its file follows. A failure is logged; the
    /// change itself stands.
    func mirrorChange(of reference: String, in store: LibraryStore) {
        do {
            try mirrorPlaylist(try store.playlist(reference), in: store)
        } catch {
            logger.warning("playlist '\(reference)' not saved as an M3U file: \(error)")
        }
    }

    /// Starts the rescan a rebuild asked for, once the daemon can scan and no scan runs (one
    /// that was under way wrote into the old database; this one starts when it ends).
    func startPendingRescan() {
        guard rescanPending, let rescan, scanProgress == nil else { return }
        rescanPending = false
        Task { await rescan() }
    }
}
