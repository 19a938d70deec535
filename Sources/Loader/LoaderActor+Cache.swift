import Base
import Cache
import FoundationEssentials
import Model

/// The cache as the user manages it: what it holds, what of a file is here, keeping playlists
/// for offline use, clearing it.
extension LoaderActor {
    /// `[cache]` from a reloaded config: what to fetch applies from the next download, a new
    /// `max_size` at once (trimmed to at the next write); a new `dir` only at the next start (the
    /// files in use are where they are), said at notice by each reload that finds it changed.
    func reloadCache(_ new: LoaderSettings) {
        settings.readAhead = new.readAhead
        settings.fillWhole = new.fillWhole
        if new.cacheLimit != settings.cacheLimit {
            settings.cacheLimit = new.cacheLimit
            cache.setLimit(new.cacheLimit)
            reportCacheStates(of: cache.trimIfNeeded(keeping: protectedNames))
        }
        if new.cacheDirectory.standardizedFileURL != settings.cacheDirectory.standardizedFileURL {
            logger.notice("[cache] dir changed to \(new.cacheDirectory.path): it takes effect when the daemon starts again; until then the cache stays in \(settings.cacheDirectory.path)")
        }
    }

    package func cacheStats() -> CacheStats {
        let entries = cache.scan()
        let protected = protectedNames
        let kept = entries.filter { protected.contains($0.name) }
        return CacheStats(entries: entries.count, bytes: entries.reduce(0) { $0 + $1.bytes }, limit: cache.limit,
                          protectedEntries: kept.count, protectedBytes: kept.reduce(0) { $0 + $1.bytes },
                          directory: cache.directory.path)
    }

    /// A track's length and the byte ranges of it in the cache (as recorded: durable), or nil
    /// when nothing of it is cached.
    package func cachedRanges(of location: TrackLocation) -> (length: Int64, ranges: [Range<Int64>])? {
        let (name, check) = SparseCache.identity(of: location.uri)
        guard let stored = cache.stored(name: name), stored.check == check else { return nil }
        return (stored.length, stored.ranges.ranges)
    }

    /// How much of a track could play without the network: all of it (a file on this machine,
    /// or a whole cached copy), part, or none (also for a track no source serves now). A file in
    /// use answers for itself (its record on disk lags behind its downloads); asking does not
    /// count as a use of the entry (LRU).
    package func cacheState(of location: TrackLocation) -> CacheState {
        switch try? input(for: location) {
        case .disk?: return .full
        case nil: return .none
        case .remote?: break
        }
        if let resource = resourceInUse(named: SparseCache.identity(of: location.uri).name), resource.currentInfo != nil {
            return resource.isComplete ? .full : resource.hasBytes ? .partial : .none
        }
        guard let (length, ranges) = cachedRanges(of: location), length > 0 else { return .none }
        return ranges == [0..<length] ? .full : .partial
    }

    /// Every byte of a track is here (`cacheState` is `.full`).
    package func isCached(_ location: TrackLocation) -> Bool {
        cacheState(of: location) == .full
    }

    /// A stream of the changes of followed tracks' cache states (`followCacheStates`).
    package nonisolated func cacheStateChanges() -> AsyncStream<CacheStateChange> {
        cacheStates.subscribe()
    }

    /// Follows the cache states of these tracks (the queue's), instead of those followed before,
    /// and returns the states of those not followed until now, all at once (a queue of 10,000
    /// tracks is one answer, not 10,000 reports); from then on a change — a download, an
    /// eviction, a clear, a new version on the server — is reported through `cacheStateChanges`.
    package func followCacheStates(of locations: [TrackLocation]) -> [TrackLocation: CacheState] {
        let before = followed
        followed = [:]
        var new: [TrackLocation: CacheState] = [:]
        for location in locations {
            let name = SparseCache.identity(of: location.uri).name
            if followed[name] != nil {
                followed[name]?.entries += 1
            } else if var known = before[name] {
                known.entries = 1
                followed[name] = known
            } else {
                let state = cacheState(of: location)
                followed[name] = FollowedTrack(location: location, state: state)
                new[location] = state
            }
        }
        return new
    }

    /// Follows the tracks of entries added to the queue as well, and no longer those of entries
    /// taken out that no other entry holds: the states of the tracks not followed until now, and
    /// the tracks no longer followed. In proportion to the change, not to the queue.
    package func followCacheStates(adding added: [TrackLocation], removing removed: [TrackLocation])
        -> (new: [TrackLocation: CacheState], dropped: [TrackLocation]) {
        var new: [TrackLocation: CacheState] = [:]
        for location in added {
            let name = SparseCache.identity(of: location.uri).name
            if followed[name] != nil {
                followed[name]?.entries += 1
            } else {
                let state = cacheState(of: location)
                followed[name] = FollowedTrack(location: location, state: state)
                new[location] = state
            }
        }
        var dropped: [TrackLocation] = []
        for location in removed {
            let name = SparseCache.identity(of: location.uri).name
            guard var track = followed[name] else { continue }
            track.entries -= 1
            if track.entries > 0 {
                followed[name] = track
            } else {
                followed[name] = nil
                dropped.append(location)
            }
        }
        return (new, dropped)
    }

    /// Reports the followed tracks among `names` whose state is not what was last reported.
    func reportCacheStates(of names: Set<String>) {
        for name in names {
            guard let track = followed[name] else { continue }
            let state = cacheState(of: track.location)
            guard state != track.state else { continue }
            followed[name]?.state = state
            cacheStates.yield(CacheStateChange(location: track.location, state: state))
        }
    }

    /// These tracks are never evicted (the tracks of pinned playlists).
    package func keep(_ locations: [TrackLocation]) {
        keptNames = Set(locations.filter { !$0.isFile }.map { SparseCache.identity(of: $0.uri).name })
    }

    /// Downloads every byte of a track that is not cached yet (pinning a playlist for offline use).
    package func fetchWhole(_ location: TrackLocation) async throws {
        guard case .remote(let input) = try input(for: location) else { return }
        let resource = try await resource(for: location, input: input)
        guard let length = resource.currentInfo?.length else { return }
        try await resource.fetch(0..<length)
    }

    /// Deletes every cached file that is not in use and not kept; returns the bytes freed.
    package func clearCache() -> Int64 {
        let protected = protectedNames
        var freed: Int64 = 0
        for entry in cache.scan() where !protected.contains(entry.name) {
            cache.remove(name: entry.name)
            freed += entry.bytes
        }
        cache.trim(keeping: protected)  // re-measures
        keptPlaylists.removeAll()  // their segments are gone
        reportCacheStates(of: Set(followed.keys))
        return freed
    }
}
