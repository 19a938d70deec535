import FoundationEssentials
import Glibc
import Loader
import Model

/// A folder on this machine, listed one level at a time as a server would list it, so one walk
/// scans both. Symbolic links are followed only to files (a link to a folder could loop); hidden
/// entries are left out.
struct LocalStorage: MediaStorage {
    let sourceRoot: SourceRoot
    let folder: URL
    let root: StorageFolder

    init(root: SourceRoot, folder: URL) {
        sourceRoot = root
        self.folder = folder
        self.root = StorageFolder(location: root.location, name: root.source)
    }

    var rootFailure: String { "cannot list \(folder.path)" }
    var rootSetting: String { "path" }

    /// Blocks on the disk: it runs on the caller's executor, the library's own thread.
    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard let url = folder.location.url, url.isFileURL else { throw LoaderError.unsupportedScheme(TrackLocation.scheme) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { throw LoaderError.notFound }
            throw isFolder ? LoaderError.permissionDenied : LoaderError.readFailed("not a folder")
        }
        var listing = StorageListing()
        for name in names.sorted() where !name.hasPrefix(".") {
            let entry = url.appendingPathComponent(name)
            var link = stat()
            var info = stat()
            guard lstat(entry.path, &link) == 0, stat(entry.path, &info) == 0 else { continue }
            let isLink = (link.st_mode & S_IFMT) == S_IFLNK
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            if isFolder && !isLink {
                let child = url.appendingPathComponent(name, isDirectory: true)
                listing.folders.append(StorageFolder(location: location(of: child), name: name))
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                let version = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
                listing.files.append(StorageFile(location: location(of: entry), name: name,
                                                 info: ResourceInfo(length: Int64(info.st_size), validator: version)))
            }
        }
        return listing
    }

    /// An entry of a listed folder: below the root, as the disk named it.
    private func location(of entry: URL) -> TrackLocation {
        CanonicalURL(entry).flatMap { sourceRoot.location(of: $0) } ?? TrackLocation(url: entry)
    }
}
