import DBus
import Library
import Loader
import Model
import MPRIS
import Playback

/// Library playlists as the queue and the cache see them: one played (Manager1 PlaylistPlay,
/// MPRIS ActivatePlaylist), and pinned ones kept in the cache and downloaded whole.
extension Manager1Service {
    /// Makes the loader keep pinned playlists' files, and downloads `playlist` whole in the
    /// background.
    package func keepPinned(downloading playlist: LibraryPlaylist? = nil) async throws {
        let sources = await loader.sources
        await loader.keep(try await library.pinnedURLs().map { sources.location(of: $0) })
        guard let playlist else { return }
        let files = try await library.entries(of: playlist).map { $0.location(in: playlist, among: sources) }
        Task { [loader, logger] in
            for file in files {
                do { try await loader.fetchWhole(file) } catch {
                    logger.notice("pinned track not downloaded", metadata: ["track": "\(file.displayName)", "reason": "\(error)"])
                }
            }
        }
    }

    func pin(_ reference: String, _ pinning: Bool) async throws -> BusNothing {
        let playlist = try await library.setPinned(pinning, playlist: reference)
        try await keepPinned(downloading: pinning ? playlist : nil)
        return BusNothing()
    }

    /// Replaces the queue with a playlist's tracks and plays the first (MPRIS ActivatePlaylist too).
    func activate(_ reference: String) async throws {
        let playlist = try await library.playlist(reference)
        let sources = await loader.sources
        let items = try await library.entries(of: playlist).map { entry in
            QueueItem(location: entry.location(in: playlist, among: sources), metadata: entry.track.map(LibraryCatalog.metadata) ?? TrackMetadata())
        }
        guard !items.isEmpty else { throw ManagerError.invalid("the playlist '\(playlist.name)' is empty") }
        try await intake.replace(with: items, playlist: playlist.id)
    }
}

/// MPRIS Playlists offers the library's playlists.
extension Manager1Service: MPRISLibrary {
    package func playlists() async -> [MPRISPlaylist] {
        guard let summaries = try? await library.playlists() else { return [] }
        return summaries.compactMap { summary in summary.playlist.id.map { MPRISPlaylist(libraryID: $0, name: summary.playlist.name) } }
    }

    package func activate(libraryID: Int64) async throws {
        try await activate(String(libraryID))
    }
}
