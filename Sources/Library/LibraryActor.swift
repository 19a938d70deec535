import Base
import Foundation
import Model

/// Owns the play queue and its order (queue order, or a shuffled one; looping or not), and the
/// library database: scanned tracks, playlists, search.
///
/// It runs on a thread of its own: SQLite calls block on the disk and must stay off the
/// cooperative pool.
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
    private var queue: [QueueEntry] = []
    /// The order tracks play in: the queue's, or a permutation of it while shuffled.
    private var order: [QueueEntry.ID] = []
    private var nextID: UInt64 = 1
    package private(set) var loop: LoopMode = .none
    package private(set) var shuffle = false

    package init() {}

    deinit {
        executor.shutdown()
    }

    /// Opens the library database (default: `$XDG_DATA_HOME/cloudplayerd/library.sqlite`).
    /// On failure the queue still works; library requests answer with the reason.
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

    /// Where new entries go in the queue.
    package enum Placement: Sendable, Equatable {
        case start
        case end
        /// Right after this entry (at the end if it is gone).
        case after(QueueEntry.ID)
    }

    /// Adds locations to the queue and returns their new entries.
    @discardableResult
    package func enqueue(_ urls: [URL], at placement: Placement = .end) -> [QueueEntry] {
        let added = urls.map { url -> QueueEntry in
            defer { nextID += 1 }
            return QueueEntry(id: nextID, url: url)
        }
        let index: Int
        switch placement {
        case .start: index = 0
        case .end: index = queue.count
        case .after(let id): index = queue.firstIndex { $0.id == id }.map { $0 + 1 } ?? queue.count
        }
        queue.insert(contentsOf: added, at: index)
        if shuffle {
            // Shuffled, a new track lands anywhere in the order.
            for entry in added { order.insert(entry.id, at: Int.random(in: 0...order.count)) }
        } else {
            order = queue.map(\.id)
        }
        return added
    }

    /// Takes an entry out of the queue; false if it was not there.
    @discardableResult
    package func remove(_ id: QueueEntry.ID) -> Bool {
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return false }
        queue.remove(at: index)
        order.removeAll { $0 == id }
        return true
    }

    package func setLoop(_ mode: LoopMode) {
        loop = mode
    }

    /// Shuffles (or restores queue order), keeping `current` where playback is so the tracks
    /// after it are the ones not yet heard in the new order.
    package func setShuffle(_ on: Bool, current: QueueEntry.ID?) {
        guard on != shuffle else { return }
        shuffle = on
        if on {
            let rest = queue.map(\.id).filter { $0 != current }.shuffled()
            order = (current.map { [$0] } ?? []) + rest
        } else {
            order = queue.map(\.id)
        }
    }

    package var entries: [QueueEntry] { queue }

    /// Empties the queue.
    package func clear() {
        queue = []
        order = []
    }

    /// The first entry in play order.
    package var first: QueueEntry? { order.first.flatMap { entry(id: $0) } }

    package func entry(id: QueueEntry.ID) -> QueueEntry? {
        queue.first { $0.id == id }
    }

    /// The entry that plays after `id` in play order, or nil at the end (or if `id` is gone).
    /// `automatically`: the track ended by itself, so a track loop repeats it; asked for (Next),
    /// any loop wraps from the last track to the first.
    package func entry(after id: QueueEntry.ID, automatically: Bool = false) -> QueueEntry? {
        guard let index = order.firstIndex(of: id) else { return nil }
        if automatically && loop == .track { return entry(id: id) }
        if index + 1 < order.count { return entry(id: order[index + 1]) }
        let wraps = automatically ? loop == .playlist : loop != .none
        return wraps ? entry(id: order[0]) : nil
    }

    /// The entry that plays before `id` in play order, or nil at the start (or if `id` is gone);
    /// with a loop, the first track's previous is the last.
    package func entry(before id: QueueEntry.ID) -> QueueEntry? {
        guard let index = order.firstIndex(of: id) else { return nil }
        if index > 0 { return entry(id: order[index - 1]) }
        return loop != .none ? entry(id: order[order.count - 1]) : nil
    }

}
