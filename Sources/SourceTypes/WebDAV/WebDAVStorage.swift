import FoundationEssentials
import Loader
import Model
import Parsers
import WebDAVAnswers

/// A WebDAV server's folders (Nextcloud, ownCloud, Yandex.Disk, `rclone serve webdav`), listed
/// with PROPFIND `Depth: 1`. A link in an answer that points outside the source — another host,
/// or `..` out of the root — is left out and reported: a server must not make us fetch, with its
/// credentials, what is not below the configured root.
struct WebDAVStorage: MediaStorage {
    let sourceRoot: SourceRoot
    let transport: HTTPTransport
    let root: StorageFolder

    init(root: SourceRoot, transport: HTTPTransport) {
        sourceRoot = root
        self.transport = transport
        self.root = StorageFolder(location: root.location, name: root.source)
    }

    /// Names the folder the source's `url` points at (without credentials), so a wrong path is
    /// seen as one.
    var rootFailure: String { "cannot list \(TrackLocation(url: sourceRoot.url.url).publicURI)" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard let folderURL = folder.location.url else { throw LoaderError.unsupportedScheme(TrackLocation.scheme) }
        let entries = try await Propfind.entries(of: folderURL, depth: 1, through: transport)
        var listing = StorageListing()
        for entry in entries {
            guard let location = resolve(entry.href, in: folderURL) else {
                listing.problems.append("ignored a link outside the source in /\(folder.location.key)")
                continue
            }
            guard Self.folderKey(location) != Self.folderKey(folder.location) else { continue }  // the folder itself
            let name = location.displayName
            if entry.isFolder {
                listing.folders.append(StorageFolder(location: location, name: name))
            } else {
                listing.files.append(StorageFile(location: location, name: name, info: entry.info))
            }
        }
        return listing
    }

    /// An href as a location inside this source, or nil for one that points elsewhere. Checked as
    /// it will be fetched: spelled canonically, dot segments (encoded ones too) resolved.
    private func resolve(_ href: String, in folder: URL) -> TrackLocation? {
        guard let raw = URL(string: href, relativeTo: folder)?.absoluteURL, !raw.path.isEmpty, raw.query == nil, raw.user == nil,
              let url = CanonicalURL(raw) else {
            return nil
        }
        return sourceRoot.location(of: url)
    }

    /// A folder's key without its trailing slash: a server may list a folder with or without it.
    private static func folderKey(_ location: TrackLocation) -> Substring {
        location.key.hasSuffix("/") ? location.key.dropLast() : Substring(location.key)
    }
}
