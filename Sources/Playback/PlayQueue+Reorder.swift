import Model

/// Reordering the queue (MPD's `move`, `moveid`, `shuffle`): entries change places, none is
/// added or removed, the current entry stays current.
extension PlayQueue {
    /// Moves an entry to `index` in queue order (clamped to the queue); false if it is not queued.
    @discardableResult
    package mutating func move(_ id: QueueEntry.ID, to index: Int) -> Bool {
        guard let from = self.index(of: id) else { return false }
        var reordered = entries
        let entry = reordered.remove(at: from)
        reordered.insert(entry, at: max(0, min(index, reordered.count)))
        reorder(reordered)
        return true
    }

    /// Puts the entries at `positions` (queue order) in a random order.
    package mutating func shuffleEntries(in positions: Range<Int>) {
        let range = positions.clamped(to: entries.indices)
        guard range.count > 1 else { return }
        var reordered = entries
        reordered[range].shuffle()
        reorder(reordered)
    }
}
