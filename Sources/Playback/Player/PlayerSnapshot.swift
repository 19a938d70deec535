import FoundationEssentials
import Loader
import Model

/// Everything the player's listeners show, as it is after one event: status, the queue and where
/// playback is in it, the current track as decoded, the position, the volume. Listeners keep the
/// last one they were given and answer from it; none asks the player back.
package struct PlayerSnapshot: Sendable {
    package var status: PlaybackStatus = .stopped
    package var queue = PlayQueue()
    /// What the decoder learnt of the current track — format, exact length; nil until it plays.
    /// (Its tags are merged into the current entry's metadata, and kept only there.)
    package var currentInfo: TrackInfo?
    /// The current track's cover art as a local file.
    package var artwork: URL?
    /// The chapter being heard: an index into `currentInfo`'s chapters; nil for a track without
    /// chapters, before its first, or when stopped.
    package var chapter: Int?
    /// The heard chapter's own picture as a local file, once it is one: shown in place of `artwork`.
    package var chapterArtwork: URL?
    /// The song a live stream (a station) says is playing, as heard: its title and artist from
    /// ICY metadata or an Ogg link's comments. Nil for files, and before a station said anything.
    package var streamSong: TrackTags?
    /// A station's stream ran dry and waits for its server (a reconnect): clients show it paused.
    package var streamStalled = false
    /// Why the last track that could not play did not — its name and the reason (a wrong
    /// password, a file gone) — until a track starts: `cloudplayerctl status` says it.
    package var failure: String?
    package var volume = 1.0
    package var position = PositionAnchor()
    /// `sleep`: when playback has faded out and pauses, by the wall clock; nil: no timer.
    package var sleepAt: Date?
    /// `stop-after`: playback stops when the current track ends.
    package var stopsAfterCurrent = false
    /// `sleep chapter`: playback pauses where the next chapter of the current track starts.
    package var sleepsAtChapterEnd = false
    /// How ReplayGain tags apply to the tracks that start from now on (MPD's `replay_gain_status`).
    package var replayGainMode = ReplayGainSettings.Mode.off
    /// The mode a client chose (`setReplayGain`), kept over config reloads; nil: `[playback]`'s.
    package var replayGainChosen: ReplayGainSettings.Mode?
    /// Seconds of silence left out (skip silence) since the player started: time saved.
    package var silenceSkipped = 0.0
    /// How much of each queued track the cache holds, as the loader last reported it (absent
    /// until it has).
    package var cached: [TrackLocation: CacheState] = [:]
    /// Bumped by every event: of two snapshots, the one with the higher serial is the newer.
    package var serial: UInt64 = 0

    package init() {}

    /// The entry being heard, or about to be.
    package var current: QueueEntry? { queue.current }

    /// The current track's chapters (none for most music).
    package var chapters: [Chapter] { currentInfo?.chapters ?? [] }

    /// The chapter being heard, if the track has chapters.
    package var currentChapter: Chapter? { chapter.flatMap { chapters.indices.contains($0) ? chapters[$0] : nil } }

    /// Seconds into the current track at `now` (0 when stopped), never past its end.
    package func seconds(at now: ContinuousClock.Instant = .now) -> Double {
        guard status != .stopped else { return 0 }
        let seconds = position.seconds(at: now)
        return min(seconds, currentInfo?.duration ?? seconds)
    }
}

/// Where playback was at an instant, and whether it moves on from there in real time: clients
/// (MPRIS's among them) interpolate between events instead of asking.
package struct PositionAnchor: Sendable, Equatable {
    package var seconds = 0.0
    package var instant = ContinuousClock.now
    /// Audio of the current track is being heard: playing, and past the start of a new stream.
    package var moving = false
    /// Seconds of the track heard per second while moving: the speed it plays at (MPRIS's Rate).
    package var rate = 1.0

    package init(seconds: Double = 0, instant: ContinuousClock.Instant = .now, moving: Bool = false, rate: Double = 1) {
        self.seconds = seconds
        self.instant = instant
        self.moving = moving
        self.rate = rate
    }

    package func seconds(at now: ContinuousClock.Instant) -> Double {
        moving ? seconds + (now - instant) / .seconds(1) * rate : seconds
    }
}
