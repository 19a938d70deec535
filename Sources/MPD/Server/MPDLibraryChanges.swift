import Library
import Model
import Playback

/// The library's changes as `idle` subsystems: a scan starting is `update`; one ending is
/// `update`, and `database` too when it changed the library (as MPD, which tells `database` only
/// then); a playlist changed is `stored_playlist`.
package enum MPDLibraryChanges {
    package static func subsystems(for change: LibraryChange) -> Set<MPDSubsystem> {
        switch change {
        case .scanStarted: [.update]
        case .scanFinished(let changed): changed ? [.update, .database] : [.update]
        case .playlistsChanged: [.storedPlaylist]
        }
    }

    /// The library's changes, as subsystems, from now on; `seen` hears each change before its
    /// subsystems are told, so what it records (or waits for) is in place when a client wakes.
    package static func stream(of library: LibraryActor,
                               seen: @escaping @Sendable (LibraryChange) async -> Void = { _ in }) -> AsyncStream<Set<MPDSubsystem>> {
        let changes = library.changes()
        return AsyncStream { continuation in
            let task = Task {
                for await change in changes {
                    await seen(change)
                    continuation.yield(subsystems(for: change))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The library as the core commands need it until the browsing side answers more: tracks by
/// their location's text, `stats`' song count, and the library's changes for `idle`.
package struct MPDLibraryBasics: MPDLibrary {
    let library: LibraryActor

    package init(library: LibraryActor) {
        self.library = library
    }

    package func songURI(of location: TrackLocation) -> String { location.publicURI }
    package func reference(forSongURI uri: String) async -> String? { nil }
    package func tracks(under folder: String) async throws -> [QueueItem]? { nil }

    package func statistics() async -> MPDStatistics {
        let summary = try? await library.summary(sources: [])
        return MPDStatistics(songs: summary?.tracks ?? 0)
    }

    package func changes() -> AsyncStream<Set<MPDSubsystem>> {
        MPDLibraryChanges.stream(of: library)
    }

    package var updatingJob: Int? { nil }
}
