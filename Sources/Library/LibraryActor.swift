import Base
import Foundation
import Model

/// The library database: scanned tracks, playlists, search, and the scan under way.
///
/// It runs on a thread of its own: SQLite calls block on the disk, and so does listing a local
/// folder, which the scanner (isolated to this actor) does between its database writes — one
/// thread keeps both off the cooperative pool and lets the store stay synchronous, one
/// transaction at a time. (GRDB's own async access would move the SQLite calls to its queue, but
/// not the folder listings.)
package actor LibraryActor {
    private let executor = ThreadExecutor(name: "library")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// The database, once opened; why it could not be, otherwise.
    private var store: Result<LibraryStore, LibraryError> = .failure(.cannotOpen(path: "", reason: "not opened"))
    /// The scan under way, if any, and what it has done so far.
    var scanProgress: ScanProgress?
    var lastScanReports: [ScanReport] = []

    package init() {}

    deinit {
        executor.shutdown()
    }

    /// Opens the library database (default: `$XDG_DATA_HOME/cloudplayerd/library.sqlite`).
    /// On failure playing still works; library requests answer with the reason.
    package func openDatabase(at file: URL? = nil) throws(LibraryError) {
        do {
            store = .success(try LibraryStore(file: file ?? LibraryStore.defaultFile))
        } catch {
            store = .failure(error)
            throw error
        }
    }

    /// The database, or why there is none.
    var database: LibraryStore {
        get throws(LibraryError) { try store.get() }
    }
}
