import SQLite

/// Folders as the scan found them, for MPD's `lsinfo`, `listfiles`, `listall` and `listallinfo`.
///
/// A folder is its location (`track.folder`, what the scan listed; with or without its last
/// `/`, the same folder). The library keeps no folder table: a folder is there when a track is
/// under it, and its subfolders are the next path segments of the folders under it, read by a
/// skip scan of `track_browse` (one index seek per subfolder, however many tracks each holds).
extension LibraryStore {
    /// The locations of the folders directly in `folder` (each ending in `/`), in order.
    func subfolders(of folder: String) throws -> [String] {
        let range = TagQuerySQL.folderRange(folder)
        return try read { db in
            var found: [String] = [], seen: Set<String> = []
            var from = range.from
            // The first folder from `from` on names the next subfolder; then the search goes on
            // after every folder under that subfolder ("C/" up to "C0": '0' follows '/').
            while let next: String = try db.fetchValue(
                "SELECT folder FROM track WHERE gone = 0 AND folder >= ? AND folder < ? ORDER BY folder LIMIT 1",
                [from, range.upTo]) {
                let rest = next.dropFirst(range.from.count)
                if rest.isEmpty {
                    // The folder itself, spelled with its `/`: what is under it comes next.
                    from = next + "\u{1}"
                    continue
                }
                let child = range.from + rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
                if seen.insert(child).inserted { found.append(child + "/") }
                // A folder spelled without its `/` ("C"): next is the least text after it.
                from = rest.contains("/") ? child + "0" : child + "\u{1}"
            }
            return found
        }
    }

    /// The tracks directly in `folder`, by location.
    func tracks(directlyIn folder: String) throws -> [LibraryTrack] {
        let range = TagQuerySQL.folderRange(folder)
        return try read { db in
            try db.fetchAll("SELECT \(LibraryTrack.selection()) FROM track WHERE gone = 0 AND folder IN (?, ?) ORDER BY folder, url",
                            [range.itself, range.from], LibraryTrack.init(row:))
        }
    }

    /// Whether any track is at or under `folder`: whether the folder exists.
    func hasTracks(under folder: String) throws -> Bool {
        let range = TagQuerySQL.folderRange(folder)
        return try read { db in
            try db.fetchValue("SELECT 1 FROM track WHERE gone = 0 AND (folder = ? OR (folder >= ? AND folder < ?)) LIMIT 1",
                              [range.itself, range.from, range.upTo]) as Int? != nil
        }
    }

    /// Every track at or under `folder` in database order (folder, then location), a page of at
    /// most `limit` after `cursor`.
    func tracks(under folder: String, from cursor: TrackCursor?, limit: Int) throws -> TrackPage {
        try tracks(matching: TagQuery(filter: .base(folder)), from: cursor, limit: limit)
    }
}
