import Base
import FoundationEssentials
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
    /// Jumps to another chapter of the current track.
    case chapter(ChapterJump)
    /// Plays this queue entry from `seconds` into it; a pause stays a pause (as Next and GoTo keep it).
    case playEntry(QueueEntry.ID, at: Double)
    /// Plays this entry from its start, also when paused: what OpenUri and `queue play` ask for.
    case playNow(QueueEntry.ID)
    /// Makes this entry current at `seconds`, paused: Play resumes there (a restored session).
    case cue(QueueEntry.ID, at: Double)
    /// Adds tracks to the queue; `play`: the first of them plays now.
    case add([QueueItem], at: PlayQueue.Placement, play: Bool)
    /// Replaces the whole queue (with a library playlist's tracks, if `playlist` is its id; with
    /// nothing, to clear it); `play`: its first track in play order plays.
    case replaceQueue([QueueItem], playlist: Int64? = nil, play: Bool)
    /// Takes an entry out of the queue; if it is playing, the next one plays.
    case remove(QueueEntry.ID)
    /// Moves an entry to another place in queue order (MPD's `move`); what plays goes on.
    case move(QueueEntry.ID, to: Int)
    /// Puts the entries at these places in queue order in a random order (MPD's `shuffle`).
    case shuffleQueue(Range<Int>)
    case setVolume(Double)
    /// Plays the current track at this speed, its pitch kept (`PlaybackSettings.speeds`, clamped),
    /// from where it is heard; kept for the track, and for its source's next tracks this session.
    case setSpeed(Double)
    case setLoop(LoopMode)
    case setShuffle(Bool)
    /// `[playback]` as a reloaded config says, from the next track on.
    case configure(PlaybackSettings)
    /// How ReplayGain tags apply from the next track on, chosen by a client (MPD's
    /// `replay_gain_mode`): kept over config reloads and restarts; nil: as `[playback]` says.
    case setReplayGain(ReplayGainSettings.Mode?)
    /// Fades out over the last `Player.sleepFade` before `at` (wall clock), then pauses and puts
    /// the volume back; nil cancels.
    case sleep(at: Date?)
    /// Stops when the current track ends (the next one becomes current); false cancels.
    case stopAfterCurrent(Bool)
    /// The sleep timer's "end of chapter": pauses where the next chapter starts (there, so Play
    /// begins it), or — in the last chapter, or a track without chapters — stops after the
    /// track; false cancels. It replaces a sleep timer set by the clock, and `sleep(at:)` it.
    case sleepAtChapterEnd(Bool)
}

/// Where a chapter jump goes.
package enum ChapterJump: Sendable, Equatable {
    /// The next chapter's start; from the last chapter, the next track.
    case next
    /// This chapter's start, or — within `Player.chapterRestartWindow` of it — the one before
    /// (at the first chapter's start: the previous track, as Previous goes).
    case previous
    /// The start of the chapter at this index (from 0).
    case index(Int)
}

extension PlayerCommand {
    /// For the debug log: tracks added are counted, with the first named — a list of 10,000 adds
    /// written out whole was megabytes of one log line, made as the player held its queue.
    package var logged: String {
        func tracks(_ items: [QueueItem]) -> String {
            items.count.counted("track") + (items.first.map { " (\($0.location.publicURI)\(items.count > 1 ? ", …" : ""))" } ?? "")
        }
        switch self {
        case .add(let items, let placement, let play): return "add \(tracks(items)) at \(placement)\(play ? ", playing" : "")"
        case .replaceQueue(let items, let playlist, let play):
            return "replaceQueue with \(tracks(items))\(playlist.map { " of playlist \($0)" } ?? "")\(play ? ", playing" : "")"
        default: return "\(self)"
        }
    }
}
