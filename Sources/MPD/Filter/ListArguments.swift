import Library

/// `list TAG [FILTER] [group TAG...]`, and the old `list album ARTIST` (one value after `album`:
/// that artist's albums).
package struct ListArguments: Equatable {
    package var tag: TrackTag
    package var filter: TagFilter?
    /// Outermost first: MPD 0.23 nests the last `group` given outermost (`list album group
    /// albumartist group musicbrainz_albumid`, Cantata's, is by album id, then artist).
    package var groups: [TrackTag] = []

    package init(tag: TrackTag, filter: TagFilter? = nil, groups: [TrackTag] = []) {
        self.tag = tag
        self.filter = filter
        self.groups = groups
    }

    package static func parse(_ arguments: [String], paths: any SongPathMapping) throws(FilterError) -> ListArguments {
        guard let name = arguments.first else { throw FilterError("Tag type expected") }
        guard let tag = TrackTag(mpdName: name), tag != .any else { throw FilterError("Unknown tag type: \(name)") }
        var rest = Array(arguments.dropFirst())
        var groups: [TrackTag] = []
        // Groups come last: `group TAG` pairs, read from the end (the outermost first).
        while rest.count >= 2, rest[rest.count - 2].lowercased() == "group" {
            let groupName = rest[rest.count - 1]
            guard let group = TrackTag(mpdName: groupName), group != .any else { throw FilterError("Unknown tag type: \(groupName)") }
            groups.append(group)
            rest.removeLast(2)
        }
        if tag == .album, rest.count == 1, !rest[0].hasPrefix("(") {
            return ListArguments(tag: tag, filter: .tag(.artist, .equal, rest[0], foldCase: false), groups: groups)
        }
        guard rest.count % 2 == 0 || rest.allSatisfy({ $0.hasPrefix("(") }) else { throw FilterError("Not a filter: \(rest.joined(separator: " "))") }
        let parsed = try QueryArguments.parse(rest, search: false, paths: paths)
        guard parsed.query.sort == nil, parsed.query.window == nil, parsed.group == nil else { throw FilterError("list takes no sort or window") }
        return ListArguments(tag: tag, filter: parsed.query.filter, groups: groups)
    }
}
