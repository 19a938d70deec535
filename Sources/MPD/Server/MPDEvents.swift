import Playback

/// Which `idle` subsystems a player event changed, as MPD reports them: `player` (play state,
/// current song, a seek), `mixer` (volume), `playlist` (the queue), `options` (repeat, random,
/// single).
enum MPDEvents {
    static func subsystems(for change: PlayerEvent.Change, before: PlayerSnapshot, after: PlayerSnapshot) -> Set<MPDSubsystem> {
        var changed = Set<MPDSubsystem>()
        switch change {
        case .subscribed, .listenStarted, .listened, .buffering, .artworkReady, .chapterArtworkReady, .positionCorrected, .progressChanged,
             .cacheChanged, .chapterChanged:
            break
        case .statusChanged, .trackStarted, .trackEnded, .currentChanged, .trackFailed, .seeked, .queueFinished,
             .outputFailed, .outputLost, .outputReturned, .streamSongChanged, .speedChanged:
            changed.insert(.player)
        case .volumeChanged:
            changed.insert(.mixer)
        case .queueChanged, .queueReplaced:
            changed.insert(.playlist)
        case .loopChanged, .shuffleChanged, .timersChanged, .replayGainChanged:
            changed.insert(.options)
        }
        if before.status != after.status || before.current?.id != after.current?.id { changed.insert(.player) }
        if before.queue.revision != after.queue.revision { changed.insert(.playlist) }
        if before.volume != after.volume { changed.insert(.mixer) }
        return changed
    }
}
