import FoundationEssentials
import SQLite

/// MPD's `find`, `search`, `list`, `count` and `stats` (see `TagQuery`), answered from indexes.
extension LibraryStore {
    /// The tracks `query` finds, a page of at most `limit` from `cursor` (nil: the first page),
    /// within the query's window.
    func tracks(matching query: TagQuery, from cursor: TrackCursor?, limit: Int) throws -> TrackPage {
        if case .ids(let rest) = cursor { return try page(of: rest, limit: limit) }
        var sql = TagQuerySQL()
        // A folder's tracks are read from `track_browse` in order (gone = 0 is its first
        // column). Any other filter is answered from its own index, and only then sorted:
        // `+gone` keeps SQLite (without statistics, every index looks as selective) from
        // walking `track_browse` for its order and testing every track.
        let browsing = query.filter.map(TagQuerySQL.isFolder) ?? true
        var conditions = [browsing ? "gone = 0" : "+gone = 0"]
        if let filter = query.filter { conditions.append(sql.condition(filter)) }
        var arguments = sql.arguments
        let window = query.window ?? 0..<Int.max
        if !browsing {
            // Sorted once, and only the ids kept (8 bytes a track), paged by id: a page read
            // after a key or an offset had SQLite find and sort every match again, and a
            // `search` of 20,000 songs of 100,000 spent 1.5 s so, 40 times over.
            let order = query.sort.map { "\($0.column ?? "title") \(query.descending ? "DESC" : "ASC"), " } ?? ""
            let ids: [Int64] = try read { db in
                try db.fetchAll("SELECT id FROM track WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)folder, url LIMIT ? OFFSET ?",
                                arguments + [window.count, window.lowerBound]) { try $0.get(0) }
            }
            return try page(of: ids[...], limit: limit)
        }
        var offset = window.lowerBound
        var order = "folder, url"
        if let sort = query.sort {
            let column = sort.column ?? "title"
            order = "\(column) \(query.descending ? "DESC" : "ASC"), folder, url"
            if case .offset(let start) = cursor { offset += start }
        } else if case .after(let folder, let url) = cursor {
            // The page after a key: the window's start was skipped on the first page.
            conditions.append("(folder, url) > (?, ?)")
            arguments += [folder, url]
            offset = 0
        } else if case .offset(let start) = cursor {
            offset += start
        }
        let already: Int = switch cursor {
        case .offset(let start): start
        default: 0
        }
        // In a window, a keyed page cannot tell how far it is: such windows page by offset.
        let keyed = query.sort == nil && query.window == nil
        let remaining = window.upperBound == Int.max ? Int.max : max(0, window.count - already)
        let count = min(limit, remaining)
        guard count > 0 else { return TrackPage(tracks: [], next: nil) }
        let rows = try read { db in
            try db.fetchAll("SELECT \(LibraryTrack.selection()) FROM track WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ? OFFSET ?",
                            arguments + [count, offset], LibraryTrack.init(row:))
        }
        guard rows.count == count, count < remaining, let last = rows.last else { return TrackPage(tracks: rows, next: nil) }
        return TrackPage(tracks: rows, next: keyed ? .after(folder: last.folder, url: last.url) : .offset(already + rows.count))
    }

    /// The tracks of the first `limit` of `ids`, in their order (one gone meanwhile is left out).
    private func page(of ids: ArraySlice<Int64>, limit: Int) throws -> TrackPage {
        let chunk = ids.prefix(limit)
        guard !chunk.isEmpty else { return TrackPage(tracks: [], next: nil) }
        let rows = try read { db in
            try db.fetchAll("SELECT \(LibraryTrack.selection()) FROM track WHERE id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))",
                            Array(chunk), LibraryTrack.init(row:))
        }
        let byID = Dictionary(rows.compactMap { track in track.id.map { ($0, track) } }, uniquingKeysWith: { first, _ in first })
        let rest = ids.dropFirst(chunk.count)
        return TrackPage(tracks: chunk.compactMap { byID[$0] }, next: rest.isEmpty ? nil : .ids(rest))
    }

    /// `list TAG [FILTER] [group G...]`: the distinct values of `tag` among the tracks `filter`
    /// finds, each row the groups' values then the tag's, ordered by them. A track without the
    /// tag has the empty value, which sorts first (MPD 0.23 lists it: `Artist: `).
    func list(_ tag: TrackTag, filter: TagFilter?, groups: [TrackTag]) throws -> [[String?]] {
        if filter == nil, groups.isEmpty, tag.isIndexed, let column = tag.column { return try distinct(column, number: tag.isNumber) }
        var sql = TagQuerySQL()
        var conditions = ["+gone = 0"]
        if let filter { conditions.append(sql.condition(filter)) }
        let columns = (groups + [tag]).map { "coalesce(\(Self.textColumn($0)), '')" }
        return try read { db in
            try db.fetchAll("""
                SELECT DISTINCT \(columns.joined(separator: ", ")) FROM track WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(columns.joined(separator: ", "))
                """, sql.arguments) { row in try (0..<columns.count).map { index -> String? in try row.get(index) } }
        }
    }

    /// Every value of an indexed column, by a loose scan of its index: one seek per value (the
    /// next one after the last), not a read of every track — `list genre` of 100k tracks reads
    /// a dozen index entries. A value only gone tracks have is left out; the empty value is
    /// first if a track has none.
    private func distinct(_ column: String, number: Bool) throws -> [[String?]] {
        try read { db in
            let unset: Int = try db.fetchValue("SELECT EXISTS (SELECT 1 FROM track WHERE (\(column) IS NULL OR \(column) = '') AND gone = 0)") ?? 0
            return (unset == 1 ? [[""]] : []) + (try db.fetchAll("""
                WITH RECURSIVE value(v) AS (
                    SELECT MIN(\(column)) FROM track
                    UNION ALL
                    SELECT (SELECT MIN(\(column)) FROM track WHERE \(column) > value.v) FROM value WHERE value.v IS NOT NULL)
                SELECT \(number ? "CAST(v AS TEXT)" : "v") FROM value
                WHERE v IS NOT NULL AND v != '' AND EXISTS (SELECT 1 FROM track WHERE \(column) = value.v AND gone = 0)
                """) { row in [try row.get(0) as String?] })
        }
    }

    /// `count [FILTER] [group TAG]`: songs and seconds, for all the tracks `filter` finds or per
    /// value of `group`.
    func count(_ filter: TagFilter?, group: TrackTag?) throws -> [TagCount] {
        var sql = TagQuerySQL()
        var conditions = ["+gone = 0"]
        if let filter { conditions.append(sql.condition(filter)) }
        let groupColumn = group.map { Self.textColumn($0) }
        let select = groupColumn.map { "\($0), " } ?? "NULL, "
        let grouping = groupColumn.map { "GROUP BY \($0) ORDER BY \($0)" } ?? ""
        return try read { db in
            try db.fetchAll("SELECT \(select)COUNT(*), coalesce(SUM(duration), 0) FROM track WHERE \(conditions.joined(separator: " AND ")) \(grouping)",
                            sql.arguments) { row in
                TagCount(group: try row.get(0), songs: try row.get(1), playtime: try row.get(2))
            }
        }
    }

    /// `stats`: distinct artists and albums, songs, their seconds, and the last scan's end.
    func stats() throws -> LibraryStats {
        try read { db in
            let updated: Date? = try db.fetchValue("SELECT MAX(finished) FROM sourceScan")
            return LibraryStats(
                artists: try db.fetchValue("SELECT COUNT(DISTINCT artist) FROM track WHERE gone = 0") ?? 0,
                albums: try db.fetchValue("SELECT COUNT(DISTINCT album) FROM track WHERE gone = 0") ?? 0,
                songs: try db.fetchValue("SELECT COUNT(*) FROM track WHERE gone = 0") ?? 0,
                playtime: try db.fetchValue("SELECT coalesce(SUM(duration), 0) FROM track WHERE gone = 0") ?? 0,
                updated: updated?.timeIntervalSince1970)
        }
    }

    /// A tag's column as text (numbers as their digits); `any` lists titles.
    private static func textColumn(_ tag: TrackTag) -> String {
        let column = tag.column ?? "title"
        return tag.isNumber ? "CAST(\(column) AS TEXT)" : column
    }
}
