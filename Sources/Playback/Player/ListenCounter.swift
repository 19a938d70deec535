import FoundationEssentials
import Model

/// Counts what is heard of the track playing, and says once per play when it becomes a listen:
/// half the track, or four minutes of a longer one (as Last.fm, ListenBrainz and Subsonic count).
///
/// A value, so the rule is tested without a player: a seek forward is not heard, a track resumed
/// near its end is not heard yet, and a track started again from its start (a loop, Previous) is
/// a new play.
package struct ListenCounter: Sendable {
    /// Heard: half the track, or this many seconds of a longer one.
    package static let heardAfter = 240.0

    private struct Play {
        let entry: QueueEntry.ID
        let startedAt: Date
        /// Where playback was when last looked at.
        var last: Double
        var heard = 0.0
        var counted = false
    }

    private var play: Play?

    package init() {}

    /// `entry` is heard from `seconds`: a new play of it (another track, or this one from its very
    /// start) — then its start time is returned, for "playing now" — or, `newPlay` false, a jump
    /// within the play being counted (nothing heard on the way).
    package mutating func started(_ entry: QueueEntry.ID, at seconds: Double, newPlay: Bool, now: Date = Date()) -> Date? {
        if newPlay {
            play = Play(entry: entry, startedAt: now, last: seconds)
            return now
        }
        if play?.entry == entry { play?.last = seconds }
        return nil
    }

    /// Playback of `entry` went on to `seconds` of a track `duration` long (nil: unknown): the
    /// way there was heard. Returns when the play started, once, as the play becomes a listen.
    package mutating func heard(_ entry: QueueEntry.ID, upTo seconds: Double, duration: Double?) -> Date? {
        guard var current = play, current.entry == entry else { return nil }
        let duration = duration ?? .infinity
        let reached = min(seconds, duration)
        current.heard += max(0, reached - current.last)
        current.last = max(current.last, reached)
        defer { play = current }
        guard !current.counted, current.heard >= min(duration / 2, Self.heardAfter) else { return nil }
        current.counted = true
        return current.startedAt
    }
}
