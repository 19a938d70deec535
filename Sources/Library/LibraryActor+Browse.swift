/// The library as the MPD server asks for it: folders, tag queries, lists, counts (see
/// `LibraryStore+Browse` and `LibraryStore+TagQuery`). Folders and tracks are locations; the
/// server maps them to its relative paths.
extension LibraryActor {
    package func subfolders(of folder: String) throws -> [String] {
        try checked { try $0.subfolders(of: folder) }
    }

    package func tracks(directlyIn folder: String) throws -> [LibraryTrack] {
        try checked { try $0.tracks(directlyIn: folder) }
    }

    package func hasTracks(under folder: String) throws -> Bool {
        try checked { try $0.hasTracks(under: folder) }
    }

    /// A page of every track under `folder` (`listall`, `listallinfo`, `add DIR`).
    package func tracks(under folder: String, from cursor: TrackCursor?, limit: Int = 1000) throws -> TrackPage {
        try checked { try $0.tracks(under: folder, from: cursor, limit: limit) }
    }

    /// A page of the tracks `query` finds (`find`, `search` and their `add`s).
    package func tracks(matching query: TagQuery, from cursor: TrackCursor?, limit: Int = 1000) throws -> TrackPage {
        try checked { try $0.tracks(matching: query, from: cursor, limit: limit) }
    }

    package func list(_ tag: TrackTag, filter: TagFilter?, groups: [TrackTag] = []) throws -> [[String?]] {
        try checked { try $0.list(tag, filter: filter, groups: groups) }
    }

    package func count(_ filter: TagFilter?, group: TrackTag? = nil) throws -> [TagCount] {
        try checked { try $0.count(filter, group: group) }
    }

    package func stats() throws -> LibraryStats {
        try checked { try $0.stats() }
    }
}

/// The tracks' edition, for a copy made from them (the MPD server's song catalog).
extension LibraryActor {
    package func edition() throws -> LibraryEdition {
        try checked { try $0.edition() }
    }

    /// The ids of the tracks `filter` finds, in no order, gone ones too, with their edition.
    package func trackIDs(matching filter: TagFilter) throws -> TrackIDs {
        try checked { try $0.trackIDs(matching: filter) }
    }
}
