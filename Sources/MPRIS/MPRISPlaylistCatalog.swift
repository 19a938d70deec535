import DBus

/// Where MPRIS Playlists gets its playlists: the library's, through the daemon. Listed with
/// their MPRIS ids and names; activating one replaces the queue with it and plays it.
package protocol MPRISPlaylistCatalog: Sendable {
    func playlists() async -> [MPRISPlaylist]
    func activate(libraryID: Int64) async throws
}
