/// The directories `listall` names before a song: those between the last one named and the song's.
struct DirectoryNames {
    private var named: Set<String>

    init(named root: String) {
        named = [root]
    }

    /// The directories above `song` not named yet, outermost first; from now on named.
    mutating func unnamed(above song: String) -> [String] {
        var parents: [String] = []
        var parent = song[..<(song.lastIndex(of: "/") ?? song.startIndex)]
        while !parent.isEmpty, !named.contains(String(parent)) {
            parents.append(String(parent))
            parent = parent[..<(parent.lastIndex(of: "/") ?? parent.startIndex)]
        }
        for directory in parents { named.insert(directory) }
        return parents.reversed()
    }
}
