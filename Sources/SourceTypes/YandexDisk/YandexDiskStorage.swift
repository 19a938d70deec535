import Loader
import Model
import Parsers
import YandexDiskAnswers

/// A disk's folders: `GET /v1/disk/resources` of a folder lists its items in `_embedded`, one
/// page (`limit` items from `offset`) at a time. Files come with `size` and `sha256`/`md5`, so a
/// rescan reads no unchanged file; their tags are read by ranged reads of their heads.
struct YandexDiskStorage: MediaStorage {
    /// A folder of more pages than this is cut short and reported (an API that pages forever).
    static let mostPages = 10_000

    let client: YandexDiskClient

    var root: StorageFolder {
        StorageFolder(location: YandexDiskPath.location(of: client.source.path, in: client.name), name: client.name)
    }

    var rootFailure: String { "cannot list disk:\(client.source.path)" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard folder.location.source == client.name else { throw LoaderError.badResponse("not a folder of this source") }
        let path = YandexDiskPath.path(ofKey: folder.location.key)
        let pageSize = client.source.account.pageSize
        var listing = StorageListing()
        var offset = 0
        for _ in 0..<Self.mostPages {
            let page = try await client.resource(path, offset: offset, limit: pageSize)
            guard page.isFolder, let embedded = page.embedded else {
                throw LoaderError.service(source: client.name, reason: "\(path): the API describes no folder here")
            }
            for item in embedded.items {
                let location = YandexDiskPath.location(of: item.path, in: client.name)
                guard location.key.hasPrefix(folder.location.key), location.key != folder.location.key else {
                    listing.problems.append("\(item.path): listed in \(path), but not below it")
                    continue
                }
                if item.isFolder {
                    listing.folders.append(StorageFolder(location: location, name: item.name))
                } else {
                    listing.files.append(StorageFile(location: location, name: item.name,
                                                     info: item.size.map { ResourceInfo(length: $0, validator: YandexDiskVersion.tag(of: item)) }))
                }
            }
            offset += embedded.items.count
            if embedded.items.isEmpty || offset >= embedded.total ?? 0 { return listing }
        }
        listing.problems.append("listed only the first \(Self.mostPages) pages of \(path)")
        return listing
    }
}
