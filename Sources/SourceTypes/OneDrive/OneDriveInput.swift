import AsyncHTTPClient
import Foundation
import Loader
import Model
import NIOHTTP1
import Parsers

/// A drive's files, read through pre-authenticated download URLs: the first read of a file asks
/// Graph for its driveItem (its version) and its `/content`, which answers 302 to a URL on
/// another host; the transport follows it with the loader's `Range` and without the token (a
/// pre-authenticated URL wants none), and the URL is kept for the next reads. One that has
/// expired (401, 403, 404, 410) means asking `/content` again, once — the same file, so cached
/// bytes are kept. Answers are stated with the file's own version (`DownloadAnswer`); `If-Range`
/// is not sent (the download host knows no such tag).
struct OneDriveInput: RemoteInput {
    let client: OneDriveClient
    let links = DownloadLinks()

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let key = try ownKey(of: location)
        return try info(of: try await client.item(key), key: key)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPClientResponse {
        let key = try ownKey(of: location)
        let path = OneDrivePath.path(ofKey: key)
        var headers = headers
        headers.remove(name: "If-Range")
        // The download host's refusals are of a URL, not of the token: no login would help.
        let failure = { @Sendable (status: HTTPResponseStatus, body: [UInt8]) -> LoaderError in
            status.code == 404 ? client.failure(status, body, about: path)
                : .service(source: client.name, reason: "\(path): the download host refused a new pre-authenticated URL (HTTP \(status.code))")
        }
        if let link = links.link(for: key) {
            let response = try await client.download(link.url, headers: headers)
            let changed = [200, 206].contains(response.status.code) && !links.agrees(response, with: link, for: key)
            guard [401, 403, 404, 410].contains(response.status.code) || changed else {
                return try await DownloadAnswer.stated(response, version: link.version, source: name, path: path, failure: failure)
            }
            // Expired: `/content` again, for a new URL of the same file; or the file changed:
            // the item and its version again, so the new bytes are stated as the new version.
            _ = try? await response.body.collect(upTo: 1 << 16)
            links.forget(link.url, for: key)
        }
        let item = try await client.item(key)
        let info = try info(of: item, key: key)
        let (response, url) = try await client.content(of: item, headers: headers)
        if [200, 206].contains(response.status.code), URLOrigin(url) != client.origin {
            links.keep(DownloadLinks.Link(url: url, version: info.validator, length: info.length, made: .now,
                                          hostTag: response.headers.first(name: "ETag")), for: key)
        }
        return try await DownloadAnswer.stated(response, version: info.validator, source: name, path: path, failure: failure)
    }

    func server(of location: TrackLocation) -> String {
        client.origin?.description ?? name
    }

    func shutdown() async {
        await client.session.transport.shutdown()
    }

    private func info(of item: OneDriveItem, key: String) throws -> ResourceInfo {
        guard item.file != nil, let size = item.size else {
            throw LoaderError.service(source: name, reason: "\(OneDrivePath.path(ofKey: key)): Graph describes no file here")
        }
        return ResourceInfo(length: size, validator: OneDriveVersion.tag(of: item))
    }
}
