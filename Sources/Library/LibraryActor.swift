import Base
import FoundationEssentials
import Logging
import Model

/// The library database: scanned tracks, playlists, search, and the scan under way.
///
/// It runs on a thread of its own: SQLite calls block on the disk, and so does listing a local
/// folder, which the scanner (isolated to this actor) does between its database writes — one
/// thread keeps both off the cooperative pool and lets the store stay synchronous, one
/// transaction at a time. The SQLite connection is used from this thread alone.
package actor LibraryActor {
    private let executor = ThreadExecutor(name: "library")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// The database, once opened; why it could not be, otherwise.
    var store: Result<LibraryStore, LibraryError> = .failure(.cannotOpen(path: "", reason: "not opened"))
    /// Where the database is, once `openDatabase` was called.
    var file: URL?
    /// The user's playlists as M3U files beside the database.
    var mirror: PlaylistMirror?
    /// A new database was made for a damaged one: the sources are to be scanned again.
    var rescanPending = false
    /// Starts that scan; set by the daemon once it can scan.
    var rescan: (@Sendable () async -> Void)?
    /// The scan under way, if any, and what it has done so far.
    var scanProgress: ScanProgress?
    var lastScanReports: [ScanReport] = []
    let logger = Logger(label: "cloudplayerd.library")
    /// The library's changes as they happen (`changes()`).
    let changeBroadcast = Broadcast<LibraryChange>()

    package init() {}

    deinit {
        executor.shutdown()
    }

    /// Opens the library database (default: `$XDG_DATA_HOME/cloudplayerd/library.sqlite`). A
    /// damaged one is set aside and a new one made (see `rebuild`). On failure playing still
    /// works; library requests answer with the reason.
    package func openDatabase(at file: URL? = nil) throws(LibraryError) {
        let file = file ?? LibraryStore.defaultFile
        self.file = file
        mirror = PlaylistMirror(libraryFile: file)
        do {
            adopt(try LibraryStore(file: file))
        } catch {
            guard case .damaged(_, let reason) = error else {
                store = .failure(error)
                throw error
            }
            try rebuild(after: reason, closing: nil)
        }
    }

    /// The database, or why there is none.
    var database: LibraryStore {
        get throws(LibraryError) { try store.get() }
    }
}
