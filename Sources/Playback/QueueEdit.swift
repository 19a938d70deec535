import Model

/// What one change did to the queue's entries, in full — the event `.queueChanged` carries it —
/// so that whoever follows the queue (the cache states, MPRIS's track list, MPD's versions)
/// changes what it keeps in proportion to the change, not to the queue: adding a song to a
/// queue of 20,000 costs its followers one song, not 20,000.
package struct QueueEdit: Sendable {
    /// The first position whose entry is not the one that was there: those before it are the
    /// same entries in the same places.
    package var from: Int
    /// The entries added, in queue order: they stand together, the first at `from`.
    package var added: [QueueEntry] = []
    /// The entries taken out.
    package var removed: [QueueEntry] = []

    package init(from: Int, added: [QueueEntry] = [], removed: [QueueEntry] = []) {
        self.from = from
        self.added = added
        self.removed = removed
    }
}
