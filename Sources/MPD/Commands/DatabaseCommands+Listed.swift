import Library

/// `find`, `search`, `listall` and `listallinfo` from the song catalog (`MPDSongCatalog`): when
/// it holds the library as the command finds it and the songs are asked in its order. Each
/// returns false, having written nothing, when the catalog cannot answer: the library answers then.
extension DatabaseCommands {
    static func findListed(_ call: inout MPDCall, _ database: MPDLibraryDatabase, _ paths: SongPaths,
                           _ query: TagQuery) async throws -> Bool {
        guard query.sort == nil, let filter = query.filter, let listing = database.catalog.listing(for: paths) else { return false }
        let found = try await database.library.trackIDs(matching: filter)
        guard database.catalog.isCurrent(listing, at: found.edition) else { return false }
        let places = listing.places(of: found.ids)
        let window = query.window ?? 0..<Int.max
        let omitted = MPDSongCatalog.Listing.omittedTags(keeping: call.session.tags)
        for place in places[min(window.lowerBound, places.count)..<min(window.upperBound, places.count)] {
            listing.write(place, omitting: omitted, to: &call.response)
            try await call.response.flushIfLarge()
        }
        return true
    }

    /// `roots`: the folders listed, each with its MPD path, itself named first (as MPD names the
    /// folder `listall` was given, and the root's).
    static func listallListed(_ call: inout MPDCall, _ database: MPDLibraryDatabase, _ paths: SongPaths,
                              roots: [(name: String, folder: String)], info: Bool) async throws -> Bool {
        guard let listing = database.catalog.listing(for: paths),
              database.catalog.isCurrent(listing, at: try await database.library.edition()) else { return false }
        let omitted = MPDSongCatalog.Listing.omittedTags(keeping: call.session.tags)
        for (name, folder) in roots {
            let ranges = listing.places(under: folder)
            if !ranges.isEmpty { call.response.field("directory", name) }
            var directories = DirectoryNames(named: name)
            for place in ranges.joined() {
                let song = listing.path(at: place)
                for directory in directories.unnamed(above: song) { call.response.field("directory", directory) }
                if info { listing.write(place, omitting: omitted, to: &call.response) } else { call.response.field("file", song) }
                try await call.response.flushIfLarge()
            }
        }
        return true
    }
}
