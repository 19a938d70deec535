import AsyncHTTPClient
import FoundationEssentials
import GoogleDriveAnswers
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
    /// A revision's address serves fixed bytes: only its 404 (the revision gone) ends it.
    let links = DownloadLinks(expiredOn: [404], comparesHostTags: false)

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let key = try ownKey(of: location)
        return try info(of: try await client.describe(key), key: key)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPClientResponse {
        let key = try ownKey(of: location)
        let path = GoogleDrivePath.path(ofKey: key)
        return try await links.get(key, headers: headers, source: name, path: path) { _ in
            try await newLink(for: key)
        } fetch: { url, headers in
            try await client.media(url, headers: headers, about: path)
        } failure: { status, body in
            client.failure(status, body, about: path)
        } forgotten: {
            // The revision gone, or the file replaced: the path's id and head revision again.
            client.ids.forget(key)
        }
    }

    func server(of location: TrackLocation) -> String {
        client.origin?.description ?? name
    }

    func shutdown() async {
        await client.session.transport.shutdown()
    }

    /// The `alt=media` address of `key`'s head revision, with the file's version.
    private nonisolated(nonsending) func newLink(for key: String) async throws -> DownloadLinks.Made {
        let file = try await client.describe(key)
        let info = try info(of: file, key: key)
        return DownloadLinks.Made(link: DownloadLinks.Link(url: client.mediaURL(file.id, revision: file.headRevisionId), version: info.validator,
                                                           length: info.length, made: .now))
    }

    private func info(of file: GoogleDriveFile, key: String) throws -> ResourceInfo {
        guard !file.isFolder, !file.isShortcut, !file.isGoogleApp, let size = file.size else {
            throw LoaderError.service(source: name, reason: "\(GoogleDrivePath.path(ofKey: key)): Drive describes no file with bytes here")
        }
        return ResourceInfo(length: size, validator: GoogleDriveVersion.tag(of: file))
    }
}
