import Cache
import Foundation

/// The cache as the user manages it: what it holds, what of a file is here, keeping playlists
/// for offline use, clearing it.
extension LoaderActor {
    package func cacheStats() -> CacheStats {
        let entries = cache.scan()
        let pinned = pinnedNames
        let kept = entries.filter { pinned.contains($0.name) }
        return CacheStats(entries: entries.count, bytes: entries.reduce(0) { $0 + $1.bytes }, limit: cache.limit,
                          pinnedEntries: kept.count, pinnedBytes: kept.reduce(0) { $0 + $1.bytes },
                          directory: cache.directory.path)
    }

    /// The file's length and the byte ranges of it in the cache (as recorded: durable), or nil
    /// when nothing of it is cached.
    package func cachedRanges(of url: URL) -> (length: Int64, ranges: [Range<Int64>])? {
        let (name, check) = SparseCache.identity(of: url)
        guard let stored = cache.stored(name: name), stored.check == check else { return nil }
        return (stored.length, stored.ranges.ranges)
    }

    /// These files are never evicted (the tracks of pinned playlists).
    package func keep(_ urls: [URL]) {
        keptNames = Set(urls.filter { !$0.isFileURL }.map { SparseCache.identity(of: $0).name })
    }

    /// Downloads every byte of `url` that is not cached yet (pinning a playlist for offline use).
    package func fetchWhole(_ url: URL) async throws {
        guard !url.isFileURL else { return }
        let resource = try await resource(for: url)
        guard let length = resource.currentInfo?.length else { return }
        try await resource.fetch(0..<length)
    }

    /// Deletes every cached file that is not in use and not pinned; returns the bytes freed.
    package func clearCache() -> Int64 {
        let pinned = pinnedNames
        var freed: Int64 = 0
        for entry in cache.scan() where !pinned.contains(entry.name) {
            cache.remove(name: entry.name)
            freed += entry.bytes
        }
        cache.trim(pinned: pinned)  // re-measures
        return freed
    }
}
