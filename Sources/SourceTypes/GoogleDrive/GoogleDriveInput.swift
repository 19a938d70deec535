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
///
/// A file shared with the user as a viewer cannot be read by revision (`canReadRevisions` false:
/// 403 insufficientFilePermissions). It is read as it is now, `files/ID?alt=media`, and each answer
/// is checked against the file's metadata asked after the answer began: the bytes Drive sent are
/// of that version or an older one, so a version other than the link's means the file changed —
/// a new link and version, once, else `changedOnServer`, as a download host's changed tag does
/// for the other clouds. https://developers.google.com/drive/api/reference/rest/v3/files/get
struct GoogleDriveInput: RemoteInput {
    let client: GoogleDriveClient
    /// A revision's address serves fixed bytes: only its 404 (the revision gone) ends it. Its
    /// answers carry no tag; a viewer's file's answers carry its version as the metadata says it
    /// after the answer (`checked`), compared with the link's.
    let links = DownloadLinks(expiredOn: [404], comparesHostTags: true)

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let key = try ownKey(of: location)
        return try info(of: try await client.describe(key), key: key)
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        let key = try ownKey(of: location)
        let path = GoogleDrivePath.path(ofKey: key)
        return try await links.get(key, headers: headers, source: name, path: path) { _ in
            try await newLink(for: key)
        } fetch: { url, headers in
            try await checked(try await client.media(url, headers: headers, about: path), from: url, key: key)
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

    /// The `alt=media` address of `key`'s head revision — of the file as it is, where revisions
    /// cannot be read (a viewer's) — with the file's version.
    private nonisolated(nonsending) func newLink(for key: String) async throws -> DownloadLinks.Made {
        let file = try await client.describe(key)
        let info = try info(of: file, key: key)
        let revision = file.readsRevisions ? file.headRevisionId : nil
        // Without a revision the answers are checked (`checked`): the link's own tag is the version.
        return DownloadLinks.Made(link: DownloadLinks.Link(url: client.mediaURL(file.id, revision: revision), version: info.validator,
                                                           length: info.length, made: .now, hostTag: revision == nil ? info.validator : nil))
    }

    /// An answer of the download address `url` as `DownloadLinks` compares it: a revision's
    /// without a tag (its bytes are fixed); the file's as it is now, with the version its
    /// metadata names after the answer began.
    private nonisolated(nonsending) func checked(_ response: HTTPAnswer, from url: URL, key: String) async throws -> HTTPAnswer {
        var checked = response
        checked.headers.remove(name: "ETag")
        guard !url.path.contains("/revisions/"), [200, 206].contains(response.status.code) else { return checked }
        let now = try await client.describe(key)
        checked.headers.replaceOrAdd(name: "ETag", value: GoogleDriveVersion.tag(of: now) ?? "\"unknown\"")
        return checked
    }

    private func info(of file: GoogleDriveFile, key: String) throws -> ResourceInfo {
        guard !file.isFolder, !file.isShortcut, !file.isGoogleApp, let size = file.size else {
            throw LoaderError.service(source: name, reason: "\(GoogleDrivePath.path(ofKey: key)): Drive describes no file with bytes here")
        }
        return ResourceInfo(length: size, validator: GoogleDriveVersion.tag(of: file))
    }
}
