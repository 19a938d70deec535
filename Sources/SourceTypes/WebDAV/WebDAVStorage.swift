import Foundation
import Loader
import Model
import Parsers

/// A WebDAV server's folders (Nextcloud, ownCloud, Yandex.Disk, `rclone serve webdav`), listed
/// with PROPFIND `Depth: 1`. A link in an answer that points outside the source — another host,
/// or `..` out of the root — is left out and reported: a server must not make us fetch, with its
/// credentials, what is not below the configured root.
struct WebDAVStorage: MediaStorage {
    let source: String
    let rootURL: URL
    let transport: HTTPTransport

    var root: StorageFolder {
        StorageFolder(location: SourceSet.location(in: source, root: rootURL, of: rootURL), name: source)
    }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard let folderURL = folder.location.url else { throw LoaderError.unsupportedScheme(TrackLocation.scheme) }
        let entries = try await Propfind.entries(of: folderURL, depth: 1, through: transport)
        let ownPath = folderURL.path.hasSuffix("/") ? folderURL.path : folderURL.path + "/"
        var listing = StorageListing()
        for entry in entries {
            guard let url = resolve(entry.href, in: folderURL) else {
                listing.problems.append("ignored a link outside the source in /\(folder.location.key)")
                continue
            }
            let path = url.path.hasSuffix("/") ? url.path : url.path + "/"
            guard path != ownPath else { continue }  // the folder itself
            let location = SourceSet.location(in: source, root: rootURL, of: url)
            let name = url.lastPathComponent
            if entry.isFolder {
                listing.folders.append(StorageFolder(location: location, name: name))
            } else {
                listing.files.append(StorageFile(location: location, name: name, info: entry.info))
            }
        }
        return listing
    }

    /// An href as a URL inside this source, or nil for one that points elsewhere. Checked as it
    /// will be fetched: decoded, dot segments (encoded ones too) resolved.
    private func resolve(_ href: String, in folder: URL) -> URL? {
        guard let raw = URL(string: href, relativeTo: folder)?.absoluteURL, !raw.path.isEmpty, raw.query == nil, raw.user == nil else {
            return nil
        }
        let url = TrackLocation.canonical(raw)
        guard SourceSet.sameOrigin(url, rootURL), SourceSet.coverage(of: url, by: rootURL) != nil else { return nil }
        return url
    }
}
