import Model

/// Reordering the queue (MPD's `move`, `moveid`, `shuffle`): entries change places, none is
/// added or removed, the current entry stays current.
extension PlayQueue {
    /// Moves an entry to `index` in queue order (clamped to the queue); what changed, nil if it
    /// is not queued.
    @discardableResult
    package mutating func move(_ id: QueueEntry.ID, to index: Int) -> QueueEdit? {
        guard let from = self.index(of: id) else { return nil }
        var reordered = entries
        let entry = reordered.remove(at: from)
        let to = max(0, min(index, reordered.count))
        reordered.insert(entry, at: to)
        return reorder(reordered, from: min(from, to))
    }

    /// Puts the entries at `positions` (queue order) in a random order; what changed, nil if
    /// nothing could.
    @discardableResult
    package mutating func shuffleEntries(in positions: Range<Int>) -> QueueEdit? {
        let range = positions.clamped(to: entries.indices)
        guard range.count > 1 else { return nil }
        var reordered = entries
        reordered[range].shuffle()
        return reorder(reordered, from: range.lowerBound)
    }
}
