import AsyncHTTPClient
import Foundation
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// A Subsonic server's songs, fetched with `download` (the original file: ranges served, and
/// the answer's ETag, Last-Modified and length are its version). The credentials are added to
/// each request's URL here, so the location the loader and the cache know has none. A server
/// that refuses answers with a document, not audio, and a 200: that is turned into its error
/// before the loader could take it for the file.
struct SubsonicInput: RemoteInput {
    /// The most of a document read when a media request is answered with one.
    static let largestRefusal = 1 << 20
    /// The largest cover art taken.
    static let largestPicture = 16 << 20

    let client: SubsonicClient

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let response = try await client.transport.send(try await url(of: location), method: .HEAD, headers: ["Accept-Encoding": "identity"])
        guard response.status == .ok else { throw client.transport.failure(response.status) }
        if Self.isDocument(response) {
            // A HEAD has no body to say why: the GET does.
            _ = try await get(location, headers: [:])
            throw LoaderError.service(source: name, reason: "the server answered a media request with a document, not audio")
        }
        return try ResourceInfo.described(by: response.headers)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPClientResponse {
        let response = try await client.transport.send(try await url(of: location), method: .GET, headers: headers)
        guard [200, 206].contains(response.status.code), Self.isDocument(response) else { return response }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestRefusal)
        } catch {
            throw LoaderError.service(source: name, reason: "the server answered a media request with a document, not audio")
        }
        throw await client.failure(in: Array(body.readableBytesView))
    }

    /// `scrobble`: "now playing" when a track starts, a play counted once it has been heard
    /// (a server that forwards these to Last.fm or ListenBrainz forwards them too).
    nonisolated(nonsending) func played(_ location: TrackLocation, heard: Bool) async throws {
        _ = try await client.call("scrobble", [("id", try Self.id(of: location, in: name)), ("submission", heard ? "true" : "false")])
    }

    /// The song's `coverArt` (`getSong`: the id is its own, often its folder's or album's, not
    /// the song's), then `getCoverArt`: the cover as the server keeps it; nil when it has none.
    nonisolated(nonsending) func artwork(_ location: TrackLocation) async throws -> Artwork? {
        let song = try await client.call("getSong", [("id", try Self.id(of: location, in: name))])
        guard let cover = song.first("song")?["coverArt"] else { return nil }
        let url = try await client.mediaURL("getCoverArt", [("id", cover)])
        let response = try await client.transport.send(url, method: .GET)
        guard response.status == .ok else { throw client.transport.failure(response.status) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestPicture)
        } catch {
            throw LoaderError.badResponse("cover art larger than \(Self.largestPicture >> 20) MiB, or broken off")
        }
        let bytes = Array(body.readableBytesView)
        guard Self.isDocument(response) else {
            return Artwork(data: bytes, mimeType: response.headers.first(name: "Content-Type") ?? "image/jpeg")
        }
        if (try? SubsonicAnswerParser.parse(bytes))?.failure?.code == 70 { return nil }
        throw await client.failure(in: bytes)
    }

    func server(of location: TrackLocation) -> String {
        URLOrigin(client.source.url)?.description ?? name
    }

    func shutdown() async {
        await client.transport.shutdown()
    }

    private nonisolated(nonsending) func url(of location: TrackLocation) async throws -> URL {
        try await client.mediaURL("download", [("id", try Self.id(of: location, in: name))])
    }

    /// The song id a location of the source `source` names.
    private static func id(of location: TrackLocation, in source: String) throws -> String {
        guard location.source == source, case .song(let id)? = SubsonicKey(location.key) else { throw LoaderError.notFound }
        return id
    }

    /// An envelope where audio was asked for: JSON or XML.
    private static func isDocument(_ response: HTTPClientResponse) -> Bool {
        let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        return type.hasPrefix("application/json") || type.hasPrefix("text/xml") || type.hasPrefix("application/xml")
    }
}
