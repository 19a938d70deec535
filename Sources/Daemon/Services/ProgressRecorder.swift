import Library
import Logging
import Model
import Playback
import ServiceLifecycle

/// Keeps in the library where long tracks were left and which were heard to the end, as the
/// player reports it: the library owns that record, the player only the queue's copy.
package struct ProgressRecorder: Service {
    private let events: AsyncStream<PlayerEvent>
    private let library: LibraryActor
    private let logger = Logger(label: "cloudplayerd.library")

    package init(player: Player, library: LibraryActor) {
        // Subscribed now, so nothing is missed before `run()`.
        events = player.subscribe()
        self.library = library
    }

    /// Follows the player to its last event — where a track was left when the daemon stopped
    /// included, so it stops after the player — then waits for its turn to stop.
    package func run() async {
        for await event in events {
            guard case .progressChanged(let entry) = event.change else { continue }
            do {
                try await library.recordProgress(at: entry.location, resumeAt: entry.metadata.resumeAt, played: entry.metadata.played)
            } catch {
                logger.notice("where a track was left is not kept", metadata: ["track": "\(entry.displayName)", "reason": "\(error)"])
            }
        }
        try? await gracefulShutdown()
    }
}
