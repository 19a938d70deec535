import DropboxAnswers
import Loader
import Model
import Parsers

/// A Dropbox's folders: `files/list_folder` lists a folder's entries a page (`limit`) at a time,
/// `files/list_folder/continue` with the `cursor` the next while `has_more`. A cursor Dropbox
/// invalidated (409 `reset`) starts the folder's listing again. Files come with `size` and
/// `content_hash`, so a rescan reads no unchanged file; their tags are read by ranged reads.
struct DropboxStorage: MediaStorage {
    /// A folder of more pages than this is cut short and reported (an API that pages forever).
    static let mostPages = 10_000
    /// Listings started again after a `reset` before the folder is given up.
    static let mostRestarts = 3

    let client: DropboxClient

    var root: StorageFolder {
        StorageFolder(location: TrackLocation(source: client.name, key: DropboxPath.key(of: client.source.path)), name: client.name)
    }

    var rootFailure: String { "cannot list \(client.source.path.isEmpty ? "/" : client.source.path)" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard folder.location.source == client.name else { throw LoaderError.badResponse("not a folder of this source") }
        let path = DropboxPath.path(ofKey: folder.location.key)
        for _ in 0..<Self.mostRestarts {
            do {
                return try await listing(of: folder.location.key, path: path)
            } catch is DropboxCursorReset {
                continue
            }
        }
        throw LoaderError.service(source: client.name, reason: "\(path): the listing's cursor kept being reset")
    }

    private nonisolated(nonsending) func listing(of key: String, path: String) async throws -> StorageListing {
        var listing = StorageListing()
        var page = try await client.listFolder(path)
        for _ in 0..<Self.mostPages {
            for entry in page.entries {
                guard entry.isFile || entry.isFolder else { continue }  // `deleted`
                if let shown = entry.pathLower ?? entry.pathDisplay, shown.lowercased() != (path + "/" + entry.name).lowercased() {
                    listing.problems.append("\(entry.pathDisplay ?? shown): listed in \(path.isEmpty ? "/" : path), but not in it")
                    continue
                }
                let location = TrackLocation(source: client.name, key: DropboxPath.key(of: entry.name, in: key))
                if entry.isFolder {
                    listing.folders.append(StorageFolder(location: location, name: entry.name))
                } else {
                    listing.files.append(StorageFile(location: location, name: entry.name,
                                                     info: entry.size.map { ResourceInfo(length: $0, validator: DropboxVersion.tag(of: entry)) }))
                }
            }
            guard page.hasMore else { return listing }
            page = try await client.listFolder(path, continuing: page.cursor)
        }
        listing.problems.append("listed only the first \(Self.mostPages) pages of \(path)")
        return listing
    }
}
