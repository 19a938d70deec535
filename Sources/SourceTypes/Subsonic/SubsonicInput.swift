import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers
import SubsonicAnswers

/// A Subsonic server's songs, fetched with `download` (the original file: ranges served, and
/// the answer's ETag, Last-Modified and length are its version), or as a transcode with
/// `stream` (no length, no ranges: the loader takes it whole, then caches it). The credentials are added to
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
        if case .stream? = SubsonicKey(location.key) {
            // Asking would start a transcode: a cached one is kept as it is.
            throw LoaderError.badResponse("a transcode is known only once it has come")
        }
        let response = try await client.transport.send(try await url(of: location), method: .HEAD, headers: ["Accept-Encoding": "identity"])
        guard response.status == .ok else { throw client.transport.failure(response.status) }
        if Self.isDocument(response) {
            // A HEAD has no body to say why: the GET does.
            _ = try await get(location, headers: [:])
            throw LoaderError.service(source: name, reason: "the server answered a media request with a document, not audio")
        }
        return try ResourceInfo.described(by: response.headers)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        let response = try await client.transport.send(try await url(of: location), method: .GET, headers: headers)
        guard [200, 206].contains(response.status.code), Self.isDocument(response) else { return response }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestRefusal)
        } catch {
            throw LoaderError.service(source: name, reason: "the server answered a media request with a document, not audio")
        }
        throw client.failure(in: Array(body.readableBytesView))
    }

    /// A song's answer always ends: a transcode without a length is gathered whole and cached.
    func answersWithoutLengthEnd(_ location: TrackLocation) -> Bool { true }

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
        throw client.failure(in: bytes)
    }

    func server(of location: TrackLocation) -> String {
        URLOrigin(client.source.url)?.description ?? name
    }

    func shutdown() async {
        await client.transport.shutdown()
    }

    /// `download` for the file; `stream` for a transcode (`format`, and `maxBitRate` if the
    /// format's text names one: `opus-128`).
    private nonisolated(nonsending) func url(of location: TrackLocation) async throws -> URL {
        let id = try Self.id(of: location, in: name)
        guard case .stream(_, let format)? = SubsonicKey(location.key) else { return try await client.mediaURL("download", [("id", id)]) }
        let parts = format.split(separator: "-", maxSplits: 1).map(String.init)
        return try await client.mediaURL("stream", [("id", id), ("format", parts[0])] + parts.dropFirst().map { ("maxBitRate", $0) })
    }

    /// The song id a location of the source `source` names.
    private static func id(of location: TrackLocation, in source: String) throws -> String {
        guard location.source == source else { throw LoaderError.notFound }
        switch SubsonicKey(location.key) {
        case .song(let id)?, .stream(let id, _)?: return id
        default: throw LoaderError.notFound
        }
    }

    /// An envelope where audio was asked for: JSON or XML.
    private static func isDocument(_ response: HTTPAnswer) -> Bool {
        let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        return type.hasPrefix("application/json") || type.hasPrefix("text/xml") || type.hasPrefix("application/xml")
    }
}
