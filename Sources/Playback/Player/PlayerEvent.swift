import FoundationEssentials
import Model

/// What the player tells its listeners (the CLI, MPRIS, Manager1, the state file): what changed,
/// and the whole state after it.
package struct PlayerEvent: Sendable {
    package enum Change: Sendable {
        /// The state when the listener subscribed.
        case subscribed
        case statusChanged(PlaybackStatus)
        /// A track is now being heard, from `seconds` into it.
        case trackStarted(QueueEntry, TrackInfo, seconds: Double)
        case trackEnded(QueueEntry)
        /// A track began to be heard from the start of a play (not after a seek in it): a
        /// scrobbler says "playing now".
        case listenStarted(QueueEntry, at: Date)
        /// The track that started at `startedAt` has been heard — half of it, or four minutes —
        /// once per play: a listen to count (ListenBrainz's rule, and Last.fm's).
        case listened(QueueEntry, startedAt: Date)
        /// The decoder of this track waits for the network (true), or has its bytes again (false).
        /// Playback goes on after a wait: a slow download never ends a track early.
        case buffering(QueueEntry, Bool)
        /// Another track is current: one about to play (Next, GoTo — `.trackStarted` follows once
        /// it is heard), or one that does not play (Next or Previous while stopped, the current
        /// track removed); nil when there is none.
        case currentChanged(QueueEntry?)
        /// The track's embedded cover art is now a local file.
        case artworkReady(QueueEntry, URL)
        /// The heard chapter's own picture is now this local file (the snapshot's `chapterArtwork`).
        case chapterArtworkReady(URL)
        /// A track could not be played (or not to its end); the queue goes on.
        case trackFailed(QueueEntry, any Error)
        /// The position jumped (a seek, or a jump to another place).
        case seeked(seconds: Double)
        /// Another chapter of the current track is heard, as playing went on into it (`index`
        /// into its chapters). A jump says its new chapter in the snapshot it publishes.
        case chapterChanged(Chapter?, index: Int?)
        /// A live stream's song changed, as heard (the snapshot's `streamSong`).
        case streamSongChanged(TrackTags)
        /// The position clients interpolate had drifted from what is heard; it is this now.
        case positionCorrected(seconds: Double)
        case volumeChanged(Double)
        /// The current track plays at this speed now, its pitch kept (the snapshot's `position.rate`).
        case speedChanged(Double)
        /// Entries were added, removed or moved: which, and from where (the queue in the snapshot
        /// is the queue after it).
        case queueChanged(QueueEdit)
        /// The whole queue was replaced (a playlist activated, the queue cleared); nothing is current.
        case queueReplaced
        case loopChanged(LoopMode)
        /// ReplayGain applies so to the tracks that start from now on (the snapshot's
        /// `replayGainMode`): a client chose it, or a reloaded config changed it.
        case replayGainChanged(ReplayGainSettings.Mode)
        case shuffleChanged(Bool)
        /// The sleep timer or stop-after-this-track was set, cancelled or ran out (the snapshot
        /// says which is set now).
        case timersChanged
        /// Where a long track was left, or that it was heard to its end, changed: the entry as it
        /// is now (its metadata's `resumeAt` and `played`, and the `speed` chosen for it), for the
        /// library to keep.
        case progressChanged(QueueEntry)
        /// How much the cache holds of these queued entries changed (the snapshot's `cached`).
        case cacheChanged([QueueEntry])
        /// The queue was played to its end.
        case queueFinished
        /// The audio output failed; playback stopped.
        case outputFailed(any Error)
        /// The sound server went away: playback is held (Paused, the place kept) until it is back.
        case outputLost(any Error)
        /// The sound server is back; playing goes on if it was playing.
        case outputReturned
    }

    package let change: Change
    package let snapshot: PlayerSnapshot

    package init(change: Change, snapshot: PlayerSnapshot) {
        self.change = change
        self.snapshot = snapshot
    }
}
