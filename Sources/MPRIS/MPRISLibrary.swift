import Foundation
import Model
import Playback

/// What MPRIS needs of the library, through the daemon: its playlists (Playlists interface), and
/// what it knows of a track a client adds (so the track list shows its tags before it plays).
package protocol MPRISLibrary: Sendable {
    func playlists() async -> [MPRISPlaylist]
    /// Replaces the queue with the library playlist `libraryID` and plays it.
    func activate(libraryID: Int64) async throws
    /// `url` as a queue item, with what the library knows of it.
    func item(for url: URL) async -> QueueItem
}
