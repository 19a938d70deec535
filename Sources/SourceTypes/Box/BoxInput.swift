import BoxAnswers
import FoundationEssentials
import Loader
import Model
import NIOHTTP1
import Parsers

/// A Box account's files, read through download URLs: the first read of a file asks for the file
/// (its version) and its `/content` of that version, which answers 302 to a URL on the download
/// host; the transport follows it with the loader's `Range` and without the token (the URL is
/// its own credential), and the URL is kept for the next reads. One that has expired (401, 403,
/// 404, 410) means asking `/content` again, once — the same version, so cached bytes are kept.
/// Answers are stated with the file's version (`DownloadAnswer`); `If-Range` is not sent.
/// https://developer.box.com/guides/downloads/file
struct BoxInput: RemoteInput {
    let client: BoxClient
    /// The URL names the version: its bytes never change, so only its expiry ends it.
    let links = DownloadLinks(expiredOn: [401, 403, 404, 410], comparesHostTags: false)

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let key = try ownKey(of: location)
        return try info(of: try await client.describe(key), key: key)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        let key = try ownKey(of: location)
        let path = CloudPath.path(ofKey: key)
        // The file (its version), then `/content` of that version: its redirect to the URL is the first read.
        return try await links.getRedirected(key, headers: headers, source: name, path: path, apiOrigin: client.origin,
                                             linkName: "download URL") {
            let file = try await client.describe(key)
            return (try info(of: file, key: key), file)
        } content: { file, headers in
            try await client.content(of: file, headers: headers)
        } fetch: { url, headers in
            try await client.download(url, headers: headers)
        } missing: { status, body in
            client.failure(status, body, about: path)
        } forgotten: {
            // The file gone or replaced: its id is looked up again.
            client.ids.forget(key)
        }
    }

    func server(of location: TrackLocation) -> String {
        client.origin?.description ?? name
    }

    func shutdown() async {
        await client.session.transport.shutdown()
    }

    private func info(of file: BoxItem, key: String) throws -> ResourceInfo {
        guard file.isFile, let size = file.size else {
            throw LoaderError.service(source: name, reason: "\(CloudPath.path(ofKey: key)): Box describes no file here")
        }
        return ResourceInfo(length: size, validator: BoxVersion.tag(of: file))
    }
}
