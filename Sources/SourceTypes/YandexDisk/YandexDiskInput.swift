import FoundationEssentials
import Loader
import Model
import NIOHTTP1
import Parsers
import YandexDiskAnswers

/// A disk's files, read through download links: the API is asked for a link (`href`, on another
/// host) and for the file's version at once, and the link is fetched with the loader's `Range`
/// and the token, as the docs say. A link that has expired (403, 404, 410) is replaced by a new
/// one once — the same file, so cached bytes are kept. The answer is stated to the loader with
/// the file's own version (`sha256`, else `md5`) as its tag (`DownloadAnswer`). `If-Range` is not
/// sent (the host knows no such tag); each 206 is checked against the version instead.
struct YandexDiskInput: RemoteInput {
    let client: YandexDiskClient
    /// An expired link answers 403 or 410 (404 once the link is gone); the host's `ETag` follows
    /// the file, not the link, so a new one is a changed file.
    let links = DownloadLinks(expiredOn: [403, 404, 410], comparesHostTags: true)

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let path = YandexDiskPath.path(ofKey: try ownKey(of: location))
        return try Self.info(of: try await client.resource(path), path: path, source: name)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        let path = YandexDiskPath.path(ofKey: try ownKey(of: location))
        return try await links.get(path, headers: headers, source: name, path: path) { _ in
            try await newLink(for: path)
        } fetch: { url, headers in
            try await client.send(url, headers: headers)
        } failure: { status, body in
            client.failure(status, body, about: path)
        }
    }

    func server(of location: TrackLocation) -> String {
        URLOrigin(client.source.account.apiURL)?.description ?? name
    }

    func shutdown() async {
        await client.transport.shutdown()
    }

    /// A new link for `path`, with the file's version (asked for together).
    private nonisolated(nonsending) func newLink(for path: String) async throws -> DownloadLinks.Made {
        async let described = client.resource(path)
        async let href = client.downloadLink(path)
        let (resource, url) = try await (described, href)
        let info = try Self.info(of: resource, path: path, source: name)
        return DownloadLinks.Made(link: DownloadLinks.Link(url: url, version: info.validator, length: info.length, made: .now))
    }

    private static func info(of resource: YandexDiskResource, path: String, source: String) throws -> ResourceInfo {
        guard !resource.isFolder, let size = resource.size else {
            throw LoaderError.service(source: source, reason: "\(path): the API describes no file here")
        }
        return ResourceInfo(length: size, validator: YandexDiskVersion.tag(of: resource))
    }
}
