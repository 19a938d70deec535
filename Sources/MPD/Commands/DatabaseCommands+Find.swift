import Library
import Playback

/// `find`/`search` (songs a filter finds, sorted and windowed), `findadd`/`searchadd` (queued),
/// `list TAG` (distinct values, grouped) and `count` (songs and playtime, grouped).
extension DatabaseCommands {
    /// What `find`/`search` and their `add` forms share: the library, its paths, and the query
    /// the arguments make (a filter is required; each `base` folder must exist).
    static func filterQuery(_ call: MPDCall, search: Bool) async throws -> (MPDLibraryDatabase, SongPaths, TagQuery) {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        let arguments = call.arguments
        let parsed = try filtering { () throws(FilterError) in try QueryArguments.parse(arguments, search: search, paths: paths) }
        guard parsed.query.filter != nil else { throw MPDError(.argument, "Filter expected") }
        try await requireBases(parsed.query.filter, database)
        return (database, paths, parsed.query)
    }

    static func find(_ call: inout MPDCall, search: Bool) async throws {
        let (database, paths, query) = try await filterQuery(call, search: search)
        if try await findListed(&call, database, paths, query) { return }
        var cursor: TrackCursor?
        repeat {
            let page = try await database.library.tracks(matching: query, from: cursor, limit: MPDLibraryDatabase.pageSize)
            for track in page.tracks { call.write(MPDLibraryDatabase.song(track, paths: paths)) }
            try await call.response.flushIfLarge()
            cursor = page.next
        } while cursor != nil
    }

    static func findadd(_ call: inout MPDCall, search: Bool) async throws {
        let (database, paths, query) = try await filterQuery(call, search: search)
        var items: [QueueItem] = []
        var cursor: TrackCursor?
        repeat {
            let page = try await database.library.tracks(matching: query, from: cursor, limit: MPDLibraryDatabase.pageSize)
            items += page.tracks.map { MPDLibraryDatabase.item($0, sources: paths.sources) }
            cursor = page.next
        } while cursor != nil && items.count <= PlayQueue.maxEntries
        guard !items.isEmpty else { return }
        do {
            call.context.take(try await call.context.intake.add(items, at: .end))
        } catch let refusal as QueueRefusal {
            throw refusal.mpdError
        }
    }

    /// `list TAG [FILTER] [group G...]`: for each distinct row, the group fields that changed,
    /// then the tag's (as MPD prints nested groups).
    static func list(_ call: inout MPDCall) async throws {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        let arguments = call.arguments
        let parsed = try filtering { () throws(FilterError) in try ListArguments.parse(arguments, paths: paths) }
        let rows = try await database.library.list(parsed.tag, filter: parsed.filter, groups: parsed.groups)
        let names = (parsed.groups + [parsed.tag]).map(Self.fieldName)
        var last: [String?] = []
        for row in rows {
            for (index, value) in row.enumerated() {
                // A group's value is said once, before the rows it heads.
                if index < row.count - 1, last.count == row.count, last[..<(index + 1)] == row[..<(index + 1)] { continue }
                if parsed.tag == .file && index == row.count - 1 {
                    call.response.field(names[index], paths.path(of: value ?? ""))
                } else {
                    call.response.field(names[index], value ?? "")
                }
            }
            last = row
            try await call.response.flushIfLarge()
        }
    }

    static func count(_ call: inout MPDCall) async throws {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        let arguments = call.arguments
        let parsed = try filtering { () throws(FilterError) in try QueryArguments.parse(arguments, search: false, paths: paths) }
        guard parsed.query.sort == nil, parsed.query.window == nil else { throw MPDError(.argument, "count takes no sort or window") }
        for counted in try await database.library.count(parsed.query.filter, group: parsed.group) {
            if let group = parsed.group { call.response.field(fieldName(group), counted.group ?? "") }
            call.response.field("songs", counted.songs)
            call.response.field("playtime", Int(counted.playtime.rounded()))
        }
    }

    /// MPD's spelling of a tag in answers (`AlbumArtist`, `file`).
    static func fieldName(_ tag: TrackTag) -> String {
        switch tag {
        case .file: "file"
        case .any: "Any"
        default: MPDTag.allCases.first { $0.trackTag == tag }?.rawValue ?? "Any"
        }
    }

    /// Each `base` folder a filter names is one the library has, as MPD refuses a missing one
    /// (`No such directory`) rather than find nothing in it.
    static func requireBases(_ filter: TagFilter?, _ database: MPDLibraryDatabase) async throws {
        switch filter {
        case .base(let folder)?:
            guard try await database.library.hasTracks(under: folder) else { throw MPDError(.noExist, "No such directory") }
        case .not(let inner)?:
            try await requireBases(inner, database)
        case .and(let parts)?:
            for part in parts { try await requireBases(part, database) }
        case .tag?, nil:
            break
        }
    }
}
