import FoundationEssentials
import Loader
import Model
import NIOHTTP1

/// A `radio` source's stations, fetched from wherever each is (no credentials: stations are
/// public). Every station is a live stream — unless its URL is a station list, which the loader
/// opens as one.
struct RadioInput: RemoteInput {
    let name: String
    let transport: HTTPTransport

    /// A station has no length or version to tell.
    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        throw LoaderError.liveStream
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        try await transport.send(try url(of: location), method: .GET, headers: headers)
    }

    func server(of location: TrackLocation) -> String {
        (try? url(of: location)).flatMap(URLOrigin.init)?.description ?? name
    }

    func isLive(_ location: TrackLocation) -> Bool { true }

    func shutdown() async {
        await transport.shutdown()
    }

    /// A station's URL, its key; the source's root (`cloudplayer://NAME/`) has none.
    func url(of location: TrackLocation) throws -> URL {
        guard let url = URL(string: location.key), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw LoaderError.notFound
        }
        return url
    }
}
