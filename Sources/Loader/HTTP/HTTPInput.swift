import FoundationEssentials
import Model
import NIOHTTP1

/// Tracks that are URLs, fetched with plain HTTP GETs: the open web, and the servers of `http`
/// (and `webdav`, `feed`) sources, through their transport.
package struct HTTPInput: RemoteInput {
    package let transport: HTTPTransport

    package init(transport: HTTPTransport) {
        self.transport = transport
    }

    package var name: String { transport.name }

    /// Length, version and type from a HEAD (of the file as stored, not a compressed form).
    package nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let response = try await transport.send(try Self.url(of: location), method: .HEAD, headers: ["Accept-Encoding": "identity"])
        guard response.status == .ok else { throw transport.failure(response.status) }
        return try ResourceInfo.described(by: response.headers)
    }

    package nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        try await transport.send(try Self.url(of: location), method: .GET, headers: headers)
    }

    /// The origin of the track (scheme://host[:port]).
    package func server(of location: TrackLocation) -> String {
        location.url.flatMap(URLOrigin.init)?.description ?? name
    }

    package func shutdown() async {
        await transport.shutdown()
    }

    /// The URL a location is at; an error for one that is no http(s) URL.
    package static func url(of location: TrackLocation) throws -> URL {
        guard let url = location.url, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw LoaderError.unsupportedScheme(location.url?.scheme ?? TrackLocation.scheme)
        }
        return url
    }
}
