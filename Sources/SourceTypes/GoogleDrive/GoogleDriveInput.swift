import AsyncHTTPClient
import Foundation
import Loader
import Model
import NIOHTTP1
import Parsers

/// A drive's files, read with `files/ID/revisions/REV?alt=media` and the loader's `Range`, the
/// token in the `Authorization` header. The first read of a file asks for its metadata (its
/// version and head revision) by id, the id looked up from the path if not known; the address and
/// version are kept for the next reads a while (`DownloadLinks`). The address names the revision,
/// so the bytes are the version's even if the file changes meanwhile, and every answer is stated
/// with that version (`DownloadAnswer`): a changed file's bytes are never mixed with the old one's.
/// A 404 (the revision gone, or the file replaced by another of the same path) means asking
/// again, once. `If-Range` is not sent (the version is checked instead).
struct GoogleDriveInput: RemoteInput {
    let client: GoogleDriveClient
    let links = DownloadLinks()

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let key = try ownKey(of: location)
        return try info(of: try await client.describe(key), key: key)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPClientResponse {
        let key = try ownKey(of: location)
        let path = GoogleDrivePath.path(ofKey: key)
        var headers = headers
        headers.remove(name: "If-Range")
        for attempt in 0..<2 {
            let link = try await link(for: key)
            let response = try await client.media(link.url, headers: headers, about: path)
            if response.status == .notFound && attempt == 0 {
                // The revision gone, or the file replaced: the path's id and head revision again.
                _ = try? await response.body.collect(upTo: 1 << 16)
                links.forget(link.url, for: key)
                client.ids.forget(key)
                continue
            }
            return try await DownloadAnswer.stated(response, version: link.version, source: name, path: path) { status, body in
                client.failure(status, body, about: path)
            }
        }
        throw LoaderError.service(source: name, reason: "\(path): not in the drive")
    }

    func server(of location: TrackLocation) -> String {
        client.origin?.description ?? name
    }

    func shutdown() async {
        await client.session.transport.shutdown()
    }

    /// The `alt=media` address of `key` with the file's version, known or asked for.
    private nonisolated(nonsending) func link(for key: String) async throws -> DownloadLinks.Link {
        if let link = links.link(for: key) { return link }
        let file = try await client.describe(key)
        let info = try info(of: file, key: key)
        let link = DownloadLinks.Link(url: client.mediaURL(file.id, revision: file.headRevisionId), version: info.validator, length: info.length, made: .now)
        links.keep(link, for: key)
        return link
    }

    private func info(of file: GoogleDriveFile, key: String) throws -> ResourceInfo {
        guard !file.isFolder, !file.isShortcut, !file.isGoogleApp, let size = file.size else {
            throw LoaderError.service(source: name, reason: "\(GoogleDrivePath.path(ofKey: key)): Drive describes no file with bytes here")
        }
        return ResourceInfo(length: size, validator: GoogleDriveVersion.tag(of: file))
    }
}
