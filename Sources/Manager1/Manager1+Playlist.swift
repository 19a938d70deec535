import DBus

extension Manager1 {
    /// A playlist: the user's own, a playlist file, a feed or a folder.
    package struct Playlist: BusRecord, Equatable {
        package var id: Int64
        package var name: String
        /// user, file, feed or folder.
        package var kind: String
        package var source: String
        package var tracks: UInt32
        package var pinned: Bool

        package init(id: Int64, name: String, kind: String, source: String, tracks: UInt32, pinned: Bool) {
            self.id = id
            self.name = name
            self.kind = kind
            self.source = source
            self.tracks = tracks
            self.pinned = pinned
        }
    }

    /// A configured source (never its credentials) and what the library holds of it.
    package struct Source: BusRecord, Equatable {
        package var name: String
        package var type: String
        package var url: String
        package var tracks: UInt32
        package var gone: UInt32
        /// Seconds since 1970; -1 when never scanned.
        package var lastScan: Int64
        /// What is wrong, one problem a line: its state ("needs login"), then what its last
        /// scan (since its settings last changed) found.
        package var problems: String

        package init(name: String, type: String, url: String, tracks: UInt32, gone: UInt32, lastScan: Int64, problems: String) {
            self.name = name
            self.type = type
            self.url = url
            self.tracks = tracks
            self.gone = gone
            self.lastScan = lastScan
            self.problems = problems
        }
    }
}
