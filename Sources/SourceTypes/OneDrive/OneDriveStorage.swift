import Loader
import Model
import OneDriveAnswers
import Parsers

/// A drive's folders: a folder's `children`, a page of `$top` at a time, `@odata.nextLink` to the
/// next. Files come with `size` and their hashes or `cTag`, so a rescan reads no unchanged file;
/// their tags are read by ranged reads of their heads. Items that are neither file nor folder
/// (a OneNote notebook, a `package`) are left out.
struct OneDriveStorage: MediaStorage {
    /// A folder of more pages than this is cut short and reported (an API that pages forever).
    static let mostPages = 10_000

    let client: OneDriveClient

    var root: StorageFolder {
        StorageFolder(location: TrackLocation(source: client.name, key: OneDrivePath.key(ofPath: client.source.path)), name: client.name)
    }

    var rootFailure: String { "cannot list \(client.source.path)" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard folder.location.source == client.name else { throw LoaderError.badResponse("not a folder of this source") }
        let key = folder.location.key
        var listing = StorageListing()
        var next: String?
        for _ in 0..<Self.mostPages {
            let page = try await client.children(key, next: next)
            for item in page.value {
                guard !item.name.isEmpty, !item.name.contains("/"), item.name != ".", item.name != ".." else {
                    listing.problems.append("\(OneDrivePath.path(ofKey: key)): an item named \"\(item.name)\", which no path can name")
                    continue
                }
                let location = TrackLocation(source: client.name, key: OneDrivePath.key(of: item.name, in: key))
                if item.isFolder {
                    listing.folders.append(StorageFolder(location: location, name: item.name))
                } else if item.file != nil {
                    listing.files.append(StorageFile(location: location, name: item.name,
                                                     info: item.size.map { ResourceInfo(length: $0, validator: OneDriveVersion.tag(of: item)) }))
                }
            }
            guard let link = page.nextLink else { return listing }
            next = link
        }
        listing.problems.append("listed only the first \(Self.mostPages) pages of \(OneDrivePath.path(ofKey: key))")
        return listing
    }
}
