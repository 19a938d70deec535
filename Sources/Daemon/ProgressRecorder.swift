import Library
import Logging
import Model
import Playback

/// Keeps in the library where long tracks were left and which were heard to the end, as the
/// player reports it: the library owns that record, the player only the queue's copy.
package struct ProgressRecorder: Sendable {
    let player: Player
    let library: LibraryActor
    private let logger = Logger(label: "cloudplayerd.library")

    package init(player: Player, library: LibraryActor) {
        self.player = player
        self.library = library
    }

    /// Follows the player until its events end.
    package func start() -> Task<Void, Never> {
        let events = player.subscribe()
        return Task { [library, logger] in
            for await event in events {
                guard case .progressChanged(let entry) = event.change else { continue }
                do {
                    try await library.recordProgress(at: entry.location, resumeAt: entry.metadata.resumeAt, played: entry.metadata.played)
                } catch {
                    logger.notice("where a track was left is not kept", metadata: ["track": "\(entry.displayName)", "reason": "\(error)"])
                }
            }
        }
    }
}
