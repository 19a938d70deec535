/// A playlist as listings show it: the record and how many tracks it holds.
package struct PlaylistSummary: Sendable, Equatable {
    package var playlist: LibraryPlaylist
    package var count: Int
}
