import AsyncHTTPClient
import Foundation
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
        guard let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
            throw LoaderError.badResponse("the server did not say how long the file is")
        }
        let version = ResourceInfo.version(in: response.headers)
        return ResourceInfo(length: length, validator: version?.text, ifRange: version?.ifRange,
                            contentType: response.headers.first(name: "Content-Type"),
                            acceptsRanges: response.headers.first(name: "Accept-Ranges") == "bytes")
    }

    package nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPClientResponse {
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
