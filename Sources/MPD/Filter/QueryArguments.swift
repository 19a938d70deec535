import Library

/// The arguments of `find`, `search`, `findadd`, `searchadd` and `count`: filter expressions or
/// the old `TAG VALUE` pairs (`find` compares them exactly, `search` as case-folded substrings),
/// then `sort [-]TAG`, `window START:END`, `position POS` and `group TAG`, in any order.
package struct QueryArguments: Equatable {
    package var query = TagQuery()
    /// `position`: where `findadd`/`searchadd` insert (kept as written; the queue reads it).
    package var position: String?
    /// `count`'s `group`.
    package var group: TrackTag?

    /// `search`: case folded, and old pairs are substrings.
    package static func parse(_ arguments: [String], search: Bool, paths: any SongPathMapping) throws(FilterError) -> QueryArguments {
        var parsed = QueryArguments()
        var filters: [TagFilter] = []
        var index = 0
        func next() throws(FilterError) -> String {
            index += 1
            guard index < arguments.count else { throw FilterError("Missing argument after \(arguments[index - 1])") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument.lowercased() {
            case _ where argument.hasPrefix("("):
                filters.append(try FilterParser.parse(argument, foldCase: search, paths: paths))
            case "sort":
                var name = try next()
                if name.hasPrefix("-") {
                    parsed.query.descending = true
                    name.removeFirst()
                }
                guard let tag = TrackTag(mpdName: name) else { throw FilterError("Unknown sort tag: \(name)") }
                parsed.query.sort = tag
            case "window":
                parsed.query.window = try Self.window(try next())
            case "position":
                parsed.position = try next()
            case "group":
                let name = try next()
                guard let tag = TrackTag(mpdName: name) else { throw FilterError("Unknown tag type: \(name)") }
                parsed.group = tag
            default:
                filters.append(try Self.pair(argument, try next(), search: search, paths: paths))
            }
            index += 1
        }
        parsed.query.filter = filters.isEmpty ? nil : filters.count == 1 ? filters[0] : .and(filters)
        return parsed
    }

    /// One old-style `TAG VALUE` pair.
    static func pair(_ name: String, _ value: String, search: Bool, paths: any SongPathMapping) throws(FilterError) -> TagFilter {
        switch name.lowercased() {
        case "base":
            if value.isEmpty || value == "/" { return .and([]) }
            guard let folder = paths.folderLocation(ofPath: value) else { throw FilterError("No such directory") }
            return .base(folder)
        case "file":
            // `search file` looks for a piece of the path, case folded, as MPD's does (ncmpcpp's
            // and Cantata's Filename search); `find file` for the song.
            if search { return .tag(.file, .contains, paths.locationSpelling(ofPart: value), foldCase: true) }
            return .tag(.file, .equal, paths.location(ofPath: value) ?? value, foldCase: false)
        default:
            guard let tag = TrackTag(mpdName: name) else { throw FilterError("Unknown filter type: \(name)") }
            return .tag(tag, search ? .contains : .equal, value, foldCase: search)
        }
    }

    /// `START:END` (END left out: to the end), as MPD reads a range.
    static func window(_ text: String) throws(FilterError) -> Range<Int> {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let start = Int(parts[0]), start >= 0 else { throw FilterError("Number expected") }
        guard parts.count == 2, !parts[1].isEmpty else { return start..<Int.max }
        guard let end = Int(parts[1]), end >= start else { throw FilterError("Invalid range") }
        return start..<end
    }
}
