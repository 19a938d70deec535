import Model

/// What can be asked of the player. Commands run one at a time, in order, each to its end.
package enum PlayerCommand: Sendable, Equatable {
    case play
    case pause
    case playPause
    case stop
    case next
    case previous
    /// Jumps to `seconds` into the current track; past its end means `next`.
    case seek(to: Double)
    /// Jumps by `seconds` (negative: back) from the current position.
    case skip(by: Double)
    /// Plays this queue entry from `seconds` into it.
    case playEntry(QueueEntry.ID, at: Double)
    /// Makes this entry current at `seconds`, paused: Play resumes there (a restored session).
    case cue(QueueEntry.ID, at: Double)
    /// Takes an entry out of the queue; if it is playing, the next one plays.
    case remove(QueueEntry.ID)
    case setVolume(Double)
    case setLoop(LoopMode)
    case setShuffle(Bool)
}
