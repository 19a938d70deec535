import FoundationEssentials
import Loader
import Model
import NIOHTTP1
import OneDriveAnswers
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
    /// An expired URL answers 401, 403 or 410 (404 once it is gone); the host's `ETag` follows
    /// the file, so a new one is a changed file.
    let links = DownloadLinks(expiredOn: [401, 403, 404, 410], comparesHostTags: true)

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let key = try ownKey(of: location)
        return try info(of: try await client.item(key), key: key)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        let key = try ownKey(of: location)
        let path = OneDrivePath.path(ofKey: key)
        // The item (its version), then `/content`: its redirect to the URL is the first read.
        return try await links.getRedirected(key, headers: headers, source: name, path: path, apiOrigin: client.origin,
                                             linkName: "pre-authenticated URL") {
            let item = try await client.item(key)
            return (try info(of: item, key: key), item)
        } content: { item, headers in
            try await client.content(of: item, headers: headers)
        } fetch: { url, headers in
            try await client.download(url, headers: headers)
        } missing: { status, body in
            client.failure(status, body, about: path)
        }
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
