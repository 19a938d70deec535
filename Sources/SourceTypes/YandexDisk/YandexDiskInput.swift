import AsyncHTTPClient
import Foundation
import Loader
import Model
import NIOHTTP1
import Parsers

/// A disk's files, read through download links: the API is asked for a link (`href`, on another
/// host) and for the file's version at once, and the link is fetched with the loader's `Range`
/// and the token, as the docs say. A link that has expired (403, 404, 410) is replaced by a new
/// one once — the same file, so cached bytes are kept. The answer is stated to the loader with
/// the file's own version (`sha256`, else `md5`) as its tag (`DownloadAnswer`). `If-Range` is not
/// sent (the host knows no such tag); each 206 is checked against the version instead.
struct YandexDiskInput: RemoteInput {
    let client: YandexDiskClient
    let links = DownloadLinks()

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let path = YandexDiskPath.path(ofKey: try ownKey(of: location))
        return try Self.info(of: try await client.resource(path), path: path, source: name)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPClientResponse {
        let path = YandexDiskPath.path(ofKey: try ownKey(of: location))
        var headers = headers
        headers.remove(name: "If-Range")
        for attempt in 0..<2 {
            let link = try await link(for: path)
            let response = try await client.send(link.url, headers: headers)
            let code = response.status.code
            let changed = [200, 206].contains(code) && !links.agrees(response, with: link, for: path)
            if ([403, 404, 410].contains(code) || changed) && attempt == 0 {
                // Expired: a new link for the same file; or the file changed: a new link and
                // version for the new one (stated as such, so the loader never mixes the two).
                _ = try? await response.body.collect(upTo: 1 << 16)
                links.forget(link.url, for: path)
                continue
            }
            if changed {
                _ = try? await response.body.collect(upTo: 1 << 16)
                throw LoaderError.changedOnServer
            }
            return try await DownloadAnswer.stated(response, version: link.version, source: name, path: path) { status, body in
                client.failure(status, body, about: path)
            }
        }
        throw LoaderError.service(source: name, reason: "\(path): no download link worked")
    }

    func server(of location: TrackLocation) -> String {
        URLOrigin(client.source.account.apiURL)?.description ?? name
    }

    func shutdown() async {
        await client.transport.shutdown()
    }

    /// The link in use for `path`, or a new one with the file's version (asked for together).
    private nonisolated(nonsending) func link(for path: String) async throws -> DownloadLinks.Link {
        if let link = links.link(for: path) { return link }
        async let described = client.resource(path)
        async let href = client.downloadLink(path)
        let (resource, url) = try await (described, href)
        let info = try Self.info(of: resource, path: path, source: name)
        let link = DownloadLinks.Link(url: url, version: info.validator, length: info.length, made: .now)
        links.keep(link, for: path)
        return link
    }

    private static func info(of resource: YandexDiskResource, path: String, source: String) throws -> ResourceInfo {
        guard !resource.isFolder, let size = resource.size else {
            throw LoaderError.service(source: source, reason: "\(path): the API describes no file here")
        }
        return ResourceInfo(length: size, validator: YandexDiskVersion.tag(of: resource))
    }
}
