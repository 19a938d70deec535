import Cache
import FoundationEssentials
import Model

/// Opening a track: a file of this machine, a remote file through the cache, a live stream
/// (a station) apart from it, or a station list's first entry that plays.
extension LoaderActor {
    /// Opens a track for reading. `waiting` hears when a read starts and stops waiting for the
    /// network (buffering).
    /// `starting`: the track starts (not a seek in one that plays): one that is not wholly
    /// cached, from a source whose server cannot be reached, is refused as not available offline
    /// rather than waited for. A track that plays keeps waiting for its bytes.
    package func open(_ location: TrackLocation, starting: Bool = true,
                      waiting: (@Sendable (Bool) -> Void)? = nil) async throws -> any ByteSource {
        if let checked = takeHeld(location, waiting: waiting) { return checked }
        return try await open(location, starting: starting, depth: 0, waiting: waiting)
    }

    /// `open`, inside `depth` station lists. A station list — by its name, or by what its server
    /// said of it — plays the first of its entries that opens; a live stream plays as it comes.
    func open(_ location: TrackLocation, starting: Bool, depth: Int, waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        if Self.namesStationList(location) || knownLists.contains(location.uri),
           let station = try await openStationList(location, depth: depth, waiting: waiting) {
            return station
        }
        switch try input(for: location) {
        case .disk: return try FileByteSource(path: try Self.path(of: location))
        case .remote(let input):
            do {
                if knownLive.contains(location.uri) || input.isLive(location) { return try await openLive(location, input: input, waiting: waiting) }
                let resource: RemoteResource
                do {
                    resource = try await self.resource(for: location, input: input, revalidatingFirst: starting)
                } catch LoaderError.liveStream {
                    knownLive.insert(location.uri)
                    let answer = resources[SparseCache.identity(of: location.uri).name]?.takeLiveAnswer()
                    return try await openLive(location, input: input, answer: answer, waiting: waiting)
                }
                if starting, !resource.isComplete, reachability.isUnreachable(resource.host) {
                    throw LoaderError.unavailableOffline(source: input.name)
                }
                return NetworkByteSource(resource: resource, waiting: waiting)
            } catch LoaderError.stationList {
                // Its server calls it a station list (its Content-Type), whatever its name.
                knownLists.insert(location.uri)
                guard let station = try await openStationList(location, depth: depth, waiting: waiting) else {
                    throw LoaderError.badResponse("the server calls it a station list, but it is none")
                }
                return station
            }
        }
    }

    /// Connects to a live stream (a station): its bytes are read as they come, never cached.
    /// `answer`: the station's answer to the first request, which found it live.
    func openLive(_ location: TrackLocation, input: any RemoteInput, answer: HTTPAnswer? = nil,
                  waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        let part = try await LiveStream.open(location, input: input, answer: answer, retryWindow: .milliseconds(Int(settings.streamRetry * 1000)),
                                             logger: logger, waiting: waiting)
        liveStreams = liveStreams.filter { $0.stream != nil } + [WeakLiveStream(stream: part.stream)]
        if isShutDown { part.cancel() }
        return part
    }
}
