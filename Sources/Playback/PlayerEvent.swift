import Foundation
import Model

/// What the player tells the world (the CLI, and MPRIS later).
package enum PlayerEvent: Sendable {
    case statusChanged(PlaybackStatus)
    /// A track is now being heard, from `seconds` into it.
    case trackStarted(QueueEntry, TrackInfo, seconds: Double)
    case trackEnded(QueueEntry)
    /// The decoder of this track waits for the network (true), or has its bytes again (false).
    /// Playback goes on after a wait: a slow download never ends a track early.
    case buffering(QueueEntry, Bool)
    /// The current track changed without playing (Next or Previous while stopped, or the current
    /// track removed): nil when there is none.
    case currentChanged(QueueEntry?)
    /// The track's embedded cover art is now a local file.
    case artworkReady(QueueEntry, URL)
    /// A track could not be played (or not to its end); the queue goes on.
    case trackFailed(QueueEntry, any Error)
    /// The position jumped (a seek, or a jump to another place).
    case seeked(seconds: Double)
    case volumeChanged(Double)
    /// The queue now holds these entries, in queue order.
    case queueChanged([QueueEntry])
    case loopChanged(LoopMode)
    case shuffleChanged(Bool)
    /// The queue was played to its end.
    case queueFinished
    /// The audio output failed; playback stopped.
    case outputFailed(any Error)
}
