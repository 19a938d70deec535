import Model

/// Speed: the pace the current track plays at, its pitch kept. The output stretches; the player
/// decides which speed each track gets and keeps the position's pace in step with it, so
/// Position, Seeked and the resume point stay in track time.
extension Player {
    /// The pace the current track is heard at: its speed (`PlaybackSettings.speed(of:)`), or 1 for
    /// a station, which cannot be heard faster than it is sent.
    var currentSpeed: Double {
        guard let current = state.current, state.currentInfo?.isLive != true else { return 1 }
        return plan.settings.speed(of: current)
    }

    /// Where playback is, moving from there at the current track's pace.
    func anchor(at seconds: Double, moving: Bool = false) -> PositionAnchor {
        PositionAnchor(seconds: seconds, moving: moving, rate: currentSpeed)
    }

    /// The current track from now on at `requested` (clamped to `PlaybackSettings.speeds`): kept
    /// in its queue entry and — through `progressChanged` — in the library, so it plays at it
    /// again when resumed; the same for its source's next tracks this session. A playing or
    /// paused track goes on at the new speed from where it is heard (a new pipeline there, as a
    /// seek: what the stretcher and the sound server held at the old speed is dropped).
    func changeSpeed(to requested: Double) async {
        // A station plays at the pace it is sent.
        guard requested.isFinite, requested > 0, let entry = state.current, state.currentInfo?.isLive != true else { return }
        let speed = PlaybackSettings.clamped(speed: requested)
        let before = currentSpeed
        chosenSpeeds[PlaybackSettings.speedKey(of: entry)] = speed
        var metadata = entry.metadata
        metadata.speed = speed
        state.queue.update(entry.id, metadata: metadata)
        guard let updated = state.queue.entry(id: entry.id) else { return }
        publish(.progressChanged(updated))
        guard state.status != .stopped, currentSpeed != before else {
            state.position.rate = currentSpeed
            return publish(.speedChanged(speed))
        }
        let heard = await position()
        let seconds = heard.map { $0.entry.id == entry.id ? $0.seconds : 0 } ?? state.position.seconds(at: .now)
        await start(updated, at: seconds, paused: state.status == .paused)
        publish(.speedChanged(speed))
    }
}
