import FoundationEssentials
import Model

/// What happens by the clock: the position kept honest while playing, the sleep timer, and
/// stop-after-this-track.
extension Player {
    /// How often, while playing, the position is checked against what the output has played
    /// (a stream that starts late, a pause in the sound server, a clock that runs its own way).
    static let positionCheckEvery = Duration.seconds(2)
    /// Closer than this, the interpolated position is left as it is.
    static let positionTolerance = 0.05
    /// How long the sleep timer's fade lasts: the last part of the time it was given.
    package static let sleepFade = 10.0
    /// How often the fade lowers the volume: small steps, and few wake-ups.
    static let fadeStep = Duration.milliseconds(250)

    func set(_ newStatus: PlaybackStatus) {
        guard newStatus != state.status else { return }
        state.status = newStatus
        if newStatus == .playing, positionClock == nil {
            positionClock = Task { [mailbox] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.positionCheckEvery)
                    mailbox.yield(.checkPosition)
                }
            }
        } else if newStatus != .playing {
            positionClock?.cancel()
            positionClock = nil
        }
        publish(.statusChanged(newStatus))
    }

    /// Takes the output's word for where playback is when the position clients interpolate has
    /// drifted from it (a new stream that the sound server starts only once it has buffered, a
    /// wait for bytes, a clock of its own); `announce`: publish the correction.
    func checkPosition(announce: Bool) async {
        guard state.status == .playing, state.position.moving, let heard = await output.position(),
              heard.entry.id == state.current?.id else { return }
        noteHeard(heard.entry, at: heard.seconds)
        guard abs(heard.seconds - state.position.seconds(at: .now)) > Self.positionTolerance else { return }
        state.position = anchor(at: heard.seconds, moving: true)
        if announce { publish(.positionCorrected(seconds: heard.seconds)) }
    }

    /// Stop-after (or a sleep at the chapter's end that reached the track's end), as `entry`'s
    /// last frame is heard: stopped, with the track that would have followed current, so Play
    /// goes on from there.
    func stopAfter(_ entry: QueueEntry) async {
        let following = state.queue.entry(after: entry.id, automatically: true)
        state.stopsAfterCurrent = false
        await stopPipeline()
        if let following, following.id != entry.id {
            state.queue.setCurrent(following)
            state.currentInfo = nil
            state.artwork = nil
            publish(.currentChanged(following))
        }
        logger.notice("stopped after the track, as asked", metadata: ["track": "\(entry.displayName)"])
        publish(.timersChanged)
    }

    /// Waits for the sleep timer by the wall clock — read again after every wait, so a laptop
    /// that slept through it pauses on waking — then fades out.
    func armSleepTimer() {
        sleepTask?.cancel()
        sleepTask = nil
        guard let deadline = state.sleepAt else { return }
        sleepTask = Task { [weak self] in
            while !Task.isCancelled {
                let untilFade = deadline.timeIntervalSinceNow - Self.sleepFade
                if untilFade <= 0 { break }
                try? await Task.sleep(for: .seconds(min(untilFade, 3600)))
            }
            await self?.fadeOutAndPause(at: deadline)
        }
    }

    /// The fade: the stream's volume (not the player's, which MPRIS shows) steps down to 0 by
    /// `deadline`, then playback pauses and the volume is put back. A cancelled timer puts it
    /// back at once.
    private func fadeOutAndPause(at deadline: Date) async {
        while !Task.isCancelled {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            if state.status == .playing { await output.setVolume(state.volume * min(1, left / Self.sleepFade)) }
            try? await Task.sleep(for: Self.fadeStep)
        }
        guard !Task.isCancelled else {
            await output.setVolume(state.volume)
            return
        }
        if state.status == .playing { await execute(.pause) }
        await output.setVolume(state.volume)
        state.sleepAt = nil
        sleepTask = nil
        logger.notice("sleep timer ran out: paused")
        publish(.timersChanged)
    }
}
