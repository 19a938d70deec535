import Model

/// A station checked before it plays (MPRIS `OpenUri` checks what it is asked to open) is
/// connected to once, not twice: the check's stream is held for the play that follows, for a few
/// seconds, then let go. A station counts its listeners by connection, and some allow one per
/// address.
struct HeldLiveStream {
    let uri: String
    let source: any ByteSource
    let at: ContinuousClock.Instant
}

extension LoaderActor {
    /// How long a checked stream waits for its play.
    static let holdFor = Duration.seconds(5)

    /// Keeps `source`, a live stream opened to check `location`, for the next `open` of it.
    package func hold(_ source: any ByteSource, for location: TrackLocation) {
        guard source is any LiveByteSource, !isShutDown else { return }
        let at = ContinuousClock.now
        held?.source.cancel()
        held = HeldLiveStream(uri: location.uri, source: source, at: at)
        Task { [weak self] in
            try? await Task.sleep(for: Self.holdFor)
            await self?.letGo(heldAt: at)
        }
    }

    /// The stream held for `location`, once, if it is still fresh; its waits reported to `waiting`.
    func takeHeld(_ location: TrackLocation, waiting: (@Sendable (Bool) -> Void)?) -> (any ByteSource)? {
        guard let kept = held, kept.uri == location.uri else { return nil }
        held = nil
        guard ContinuousClock.now - kept.at < Self.holdFor else {
            kept.source.cancel()
            return nil
        }
        return (kept.source as? LivePart)?.reporting(to: waiting) ?? kept.source
    }

    private func letGo(heldAt at: ContinuousClock.Instant) {
        guard let kept = held, kept.at == at else { return }
        held = nil
        kept.source.cancel()
    }
}
