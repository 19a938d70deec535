/// A playlist as listings show it: the record and how many tracks it holds.
public struct PlaylistSummary: Sendable, Equatable {
    public var playlist: LibraryPlaylist
    public var count: Int
}
