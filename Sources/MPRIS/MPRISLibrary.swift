import FoundationEssentials
import Model
import Playback

/// What MPRIS needs of the library, through the daemon: where a URI a client adds is (which
/// source serves it) and what is known of it (so the track list shows its tags before it plays),
/// and the playlists of the Playlists interface.
package protocol MPRISLibrary: Sendable {
    /// `url` as a queue item: its location among the configured sources, with what is known of it.
    func item(for url: URL) async -> QueueItem
    func playlists() async -> [MPRISPlaylist]
    /// Replaces the queue with the library playlist `libraryID` and plays it.
    func activate(libraryID: Int64) async throws
}
