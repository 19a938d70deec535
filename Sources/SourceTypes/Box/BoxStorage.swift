import BoxAnswers
import Loader
import Model
import Parsers

/// A Box account's folders: a folder's items, a page of `limit` at a time, `next_marker` to the
/// next. Files come with `size`, `sha1` and `file_version`, so a rescan reads no unchanged file;
/// their tags are read by ranged reads of their heads. Web links (bookmarks, no bytes) are left
/// out. Every item's id is kept, so playing a track needs no lookup of its path.
struct BoxStorage: MediaStorage {
    let client: BoxClient

    var root: StorageFolder {
        StorageFolder(location: TrackLocation(source: client.name, key: CloudPath.key(ofPath: client.source.path)), name: client.name)
    }

    var rootFailure: String { "cannot list \(client.source.folderID.map { "folder \($0)" } ?? client.source.path)" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard folder.location.source == client.name else { throw LoaderError.badResponse("not a folder of this source") }
        let key = folder.location.key
        let path = CloudPath.path(ofKey: key)
        let (items, complete) = try await client.items(of: try await client.id(of: key), about: path)
        var listing = StorageListing()
        if !complete { listing.problems.append("listed only the first \(BoxClient.mostPages) pages of \(path)") }
        for item in items where item.isFile || item.isFolder {
            guard CloudPath.isNameable(item.name) else {
                listing.problems.append("\(path): an item named \"\(item.name)\", which no path can name")
                continue
            }
            let location = TrackLocation(source: client.name, key: CloudPath.key(of: item.name, in: key))
            client.ids.keep(item.id, for: location.key)
            if item.isFolder {
                listing.folders.append(StorageFolder(location: location, name: item.name))
            } else {
                listing.files.append(StorageFile(location: location, name: item.name,
                                                 info: item.size.map { ResourceInfo(length: $0, validator: BoxVersion.tag(of: item)) }))
            }
        }
        return listing
    }
}
