import Foundation

/// Owns the play queue. (Persistence, sources and the tag database come with the library issue.)
public actor LibraryActor {
    private var queue: [QueueEntry] = []
    private var nextID: UInt64 = 1

    public init() {}

    /// Appends locations to the queue and returns their new entries.
    @discardableResult
    public func enqueue(_ urls: [URL]) -> [QueueEntry] {
        let added = urls.map { url -> QueueEntry in
            defer { nextID += 1 }
            return QueueEntry(id: nextID, url: url)
        }
        queue.append(contentsOf: added)
        return added
    }

    public var entries: [QueueEntry] { queue }

    public var first: QueueEntry? { queue.first }

    public func entry(id: QueueEntry.ID) -> QueueEntry? {
        queue.first { $0.id == id }
    }

    /// The entry that plays after `id`, or nil at the end of the queue (or if `id` is gone).
    public func entry(after id: QueueEntry.ID) -> QueueEntry? {
        guard let index = queue.firstIndex(where: { $0.id == id }), index + 1 < queue.count else { return nil }
        return queue[index + 1]
    }

    /// The entry that plays before `id`, or nil at the start of the queue (or if `id` is gone).
    public func entry(before id: QueueEntry.ID) -> QueueEntry? {
        guard let index = queue.firstIndex(where: { $0.id == id }), index > 0 else { return nil }
        return queue[index - 1]
    }

    public func clear() {
        queue.removeAll()
    }
}
