import FoundationEssentials
import Model

/// Live streams (stations): opened apart from the cache, and ended when the loader shuts down.
extension LoaderActor {
    /// Connects to a live stream (a station): its bytes are read as they come, never cached.
    func openLive(_ location: TrackLocation, input: any RemoteInput, waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        let part = try await LiveStream.open(location, input: input, retryWindow: .milliseconds(Int(settings.streamRetry * 1000)),
                                             logger: logger, waiting: waiting)
        liveStreams = liveStreams.filter { $0.stream != nil } + [WeakLiveStream(stream: part.stream)]
        if isShutDown { part.cancel() }
        return part
    }
}
