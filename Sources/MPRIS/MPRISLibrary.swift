/// What MPRIS needs of the library, through the daemon: the playlists of the Playlists
/// interface. (Tracks a client adds come in through `QueueIntake`.)
package protocol MPRISLibrary: Sendable {
    func playlists() async -> [MPRISPlaylist]
    /// Replaces the queue with the library playlist `libraryID` and plays it.
    func activate(libraryID: Int64) async throws
}
