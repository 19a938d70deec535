import Library
import Logging
import Model
import Playback
import ServiceLifecycle

/// Keeps in the library where long tracks were left, which were heard to the end, and the cover
/// file a track showed as it played, as the player reports them: the library owns that record,
/// the player only the queue's copy.
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
            switch event.change {
            case .progressChanged(let entry):
                do {
                    try await library.recordProgress(at: entry.location, resumeAt: entry.metadata.resumeAt, played: entry.metadata.played,
                                                     speed: entry.metadata.speed)
                } catch {
                    logger.notice("where a track was left is not kept", metadata: ["track": "\(entry.displayName)", "reason": "\(error)"])
                }
            case .artworkReady(let entry, let file):
                // The scan skips pictures (a cover can weigh megabytes); once a track has played,
                // the desktop's search shows its cover from the art cache.
                try? await library.recordArtwork(at: entry.location, file: file.path)
            default:
                continue
            }
        }
        try? await gracefulShutdown()
    }
}
