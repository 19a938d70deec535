import Base

/// The ids of a cloud's files and folders a source has met, by key — for the providers that find
/// items by id, not by path (Google Drive, Box): filled by listings and by looking paths up, so a
/// track's path turns into the id the API wants without a lookup each time. Never written
/// anywhere: a track's location is its path, and an id that no longer answers is forgotten and
/// looked up again.
final class CloudItemIDs: Sendable {
    private let ids = Locked<[String: String]>([:])

    init(base: String) {
        ids.withLock { $0[""] = base }
    }

    func id(of key: String) -> String? {
        ids.withLock { $0[key] }
    }

    func keep(_ id: String, for key: String) {
        ids.withLock { $0[key] = id }
    }

    /// Forgets `key` and every key below it (the root's id is kept).
    func forget(_ key: String) {
        guard !key.isEmpty else { return }
        ids.withLock { ids in
            for known in ids.keys where known == key || known.hasPrefix(key + "/") { ids[known] = nil }
        }
    }
}
