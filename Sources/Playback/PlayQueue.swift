import FoundationEssentials
import Model

/// The play queue: its entries in queue order, the order they play in (the same, or a shuffled
/// one), where playback is, and what happens at the end of a track or of the queue.
///
/// A value: the `Player` owns the one that plays and changes it only in its mailbox, and every
/// event carries a copy, so whoever shows the queue (MPRIS's track list, `cloudplayerctl`, the
/// state file) reads it from the event instead of asking.
package struct PlayQueue: Sendable {
    /// Where new entries go.
    package enum Placement: Sendable, Equatable {
        case start
        case end
        /// Right after this entry (at the end if it is gone).
        case after(QueueEntry.ID)
    }

    /// The entries, in queue order.
    package private(set) var entries: [QueueEntry] = []
    /// The order entries play in: queue order, or a permutation of it while shuffled.
    package private(set) var playOrder: [QueueEntry.ID] = []
    /// The entry being heard or about to be (what Next, Previous and Seek act on); it may have
    /// been removed from the queue meanwhile, and then only names what still plays.
    package private(set) var current: QueueEntry?
    package var loop: LoopMode = .none
    package private(set) var shuffle = false
    /// The library playlist the queue was made from (MPRIS ActivePlaylist), by its id; nil for a
    /// queue made by hand. Kept while tracks are added or removed, gone when the queue is replaced.
    package private(set) var playlist: Int64?
    /// Ids are never reused, so an MPRIS track id always names one entry.
    private var nextID: UInt64 = 1
    /// The ids the last `add` gave its entries (MPD's `addid` answers with them).
    package private(set) var lastAddedIDs: Range<QueueEntry.ID> = 1..<1
    /// Counts the changes of `entries`' ids and order: two queues with the same revision list
    /// the same entries (MPRIS's `Tracks` is compared by it, not entry by entry).
    package private(set) var revision: UInt64 = 0
    /// The bytes of the entries' locations' text (`PlayQueue+Limits`), kept as entries come and go.
    package private(set) var locationBytes = 0

    package init() {}

    /// Adds entries for `items` at `placement`; returns them.
    @discardableResult
    package mutating func add(_ items: [QueueItem], at placement: Placement = .end) -> [QueueEntry] {
        insert(items, at: placement).added
    }

    /// Adds entries for `items` at `placement`; returns what changed.
    package mutating func insert(_ items: [QueueItem], at placement: Placement = .end) -> QueueEdit {
        guard !items.isEmpty else { return QueueEdit(from: entries.count) }
        let first = nextID
        let added = items.map { item -> QueueEntry in
            defer { nextID += 1 }
            return QueueEntry(id: nextID, location: item.location, metadata: item.metadata)
        }
        lastAddedIDs = first..<nextID
        let index: Int
        switch placement {
        case .start: index = 0
        case .end: index = entries.count
        case .after(let id): index = entries.firstIndex { $0.id == id }.map { $0 + 1 } ?? entries.count
        }
        entries.insert(contentsOf: added, at: index)
        locationBytes += added.reduce(0) { $0 + $1.location.uri.utf8.count }
        if shuffle {
            // Shuffled, a new track lands anywhere in the order.
            for entry in added { playOrder.insert(entry.id, at: Int.random(in: 0...playOrder.count)) }
        } else {
            playOrder.insert(contentsOf: added.map(\.id), at: index)
        }
        revision &+= 1
        return QueueEdit(from: index, added: added)
    }

    /// Takes an entry out of the queue; false if it was not there. A current entry stays current
    /// (it may still be playing) until the player moves on.
    @discardableResult
    package mutating func remove(_ id: QueueEntry.ID) -> Bool {
        take(id) != nil
    }

    /// Takes an entry out of the queue; what changed, nil if it was not there.
    package mutating func take(_ id: QueueEntry.ID) -> QueueEdit? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        let entry = entries.remove(at: index)
        locationBytes -= entry.location.uri.utf8.count
        if let place = playOrder.firstIndex(of: id) { playOrder.remove(at: place) }
        revision &+= 1
        return QueueEdit(from: index, removed: [entry])
    }

    /// Replaces every entry with entries for `items` (made from `playlist`, if from one); nothing
    /// is current any more.
    package mutating func replace(with items: [QueueItem], playlist: Int64? = nil) {
        entries = []
        playOrder = []
        locationBytes = 0
        current = nil
        self.playlist = playlist
        add(items)
    }

    /// The same entries in a new queue order, changed from position `from` on; the play order
    /// follows it unless shuffled.
    mutating func reorder(_ reordered: [QueueEntry], from: Int) -> QueueEdit {
        entries = reordered
        if !shuffle { playOrder = entries.map(\.id) }
        revision &+= 1
        return QueueEdit(from: from)
    }

    /// Makes `entry` current (nil: none).
    package mutating func setCurrent(_ entry: QueueEntry?) {
        current = entry.map { self.entry(id: $0.id) ?? $0 }
    }

    /// What is now known of an entry (its decoded tags, once it plays).
    package mutating func update(_ id: QueueEntry.ID, metadata: TrackMetadata) {
        if let index = entries.firstIndex(where: { $0.id == id }) { entries[index].metadata = metadata }
        if current?.id == id { current?.metadata = metadata }
    }

    /// Shuffles (or restores queue order), keeping the current entry where playback is, so the
    /// entries after it are the ones not yet heard in the new order.
    package mutating func setShuffle(_ on: Bool) {
        guard on != shuffle else { return }
        shuffle = on
        let currentID = current?.id
        if on {
            let rest = entries.map(\.id).filter { $0 != currentID }.shuffled()
            playOrder = (currentID.flatMap { id in entries.contains { $0.id == id } ? [id] : nil } ?? []) + rest
        } else {
            playOrder = entries.map(\.id)
        }
    }

    // MARK: Reading

    /// The first entry in play order.
    package var first: QueueEntry? { playOrder.first.flatMap { entry(id: $0) } }

    package func entry(id: QueueEntry.ID) -> QueueEntry? {
        entries.first { $0.id == id }
    }

    /// The position of an entry in queue order.
    package func index(of id: QueueEntry.ID) -> Int? {
        entries.firstIndex { $0.id == id }
    }

    /// The entry that plays after `id` in play order, or nil at the end (or if `id` is gone).
    /// `automatically`: the track ended by itself, so a track loop repeats it; asked for (Next),
    /// any loop wraps from the last track to the first.
    package func entry(after id: QueueEntry.ID, automatically: Bool = false) -> QueueEntry? {
        guard let index = playOrder.firstIndex(of: id) else { return nil }
        if automatically && loop == .track { return entry(id: id) }
        if index + 1 < playOrder.count { return entry(id: playOrder[index + 1]) }
        let wraps = automatically ? loop == .playlist : loop != .none
        return wraps ? entry(id: playOrder[0]) : nil
    }

    /// The entry that plays before `id` in play order, or nil at the start (or if `id` is gone);
    /// with a loop, the first track's previous is the last.
    package func entry(before id: QueueEntry.ID) -> QueueEntry? {
        guard let index = playOrder.firstIndex(of: id) else { return nil }
        if index > 0 { return entry(id: playOrder[index - 1]) }
        return loop != .none ? entry(id: playOrder[playOrder.count - 1]) : nil
    }

    /// Whether the entry plays between tracks of its own album — the one before or after it in
    /// play order is of the same album (`replaygain = "auto"`). Where either's album is not
    /// known yet (files given to `play`, before they have played), the same folder stands for it.
    package func isInAlbumRun(_ id: QueueEntry.ID) -> Bool {
        guard let entry = entry(id: id) else { return false }
        let index = playOrder.firstIndex(of: id)
        let neighbours = [index.flatMap { $0 > 0 ? playOrder[$0 - 1] : nil },
                          index.flatMap { $0 + 1 < playOrder.count ? playOrder[$0 + 1] : nil }]
        return neighbours.compactMap { $0.flatMap { self.entry(id: $0) } }.contains { Self.sameAlbum($0, entry) }
    }

    private static func sameAlbum(_ one: QueueEntry, _ other: QueueEntry) -> Bool {
        let (a, b) = (one.metadata.tags, other.metadata.tags)
        if let first = a.album, let second = b.album {
            return first == second && (a.albumArtist ?? a.artist) == (b.albumArtist ?? b.artist)
        }
        return one.location.folder == other.location.folder
    }

    /// Whether Next has somewhere to go from the current entry.
    package var hasNext: Bool {
        current.map { entry(after: $0.id) != nil } ?? false
    }
}

/// What to queue: a location, and what is known of it already.
package struct QueueItem: Sendable, Hashable {
    package var location: TrackLocation
    package var metadata: TrackMetadata

    package init(location: TrackLocation, metadata: TrackMetadata = TrackMetadata()) {
        self.location = location
        self.metadata = metadata
    }
}
