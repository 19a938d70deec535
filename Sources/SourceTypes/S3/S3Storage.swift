import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers
import S3Answers

/// A bucket's "folders": `ListObjectsV2` with `delimiter=/` lists one level below a prefix —
/// objects as files (size, ETag and LastModified as their version, so a rescan reads no
/// unchanged one), common prefixes as folders — page by page (`continuation-token`).
struct S3Storage: MediaStorage {
    let bucket: S3Bucket
    let prefix: String
    /// `max-keys` of each page.
    let pageSize: Int
    /// The source's `shownLocation`: `s3://BUCKET/PREFIX at ENDPOINT`.
    let shown: String
    var rootFailure: String { "cannot list \(shown)" }
    var rootSetting: String { "bucket and prefix" }
    /// A listing larger than this many pages is cut short and reported (a server that pages forever).
    static let mostPages = 10_000
    /// Larger pages are refused: 1000 keys are not megabytes of XML.
    static let largestPage = 16 << 20

    var root: StorageFolder {
        StorageFolder(location: TrackLocation(source: bucket.source, key: prefix), name: bucket.source)
    }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        let prefix = folder.location.key
        var listing = StorageListing()
        var token: String?
        for _ in 0..<Self.mostPages {
            var query = [("list-type", "2"), ("delimiter", "/"), ("prefix", prefix), ("max-keys", String(pageSize))]
            if let token { query.append(("continuation-token", token)) }
            let response = try await bucket.send(.GET, key: nil, query: query)
            guard response.status == .ok else { throw bucket.failure(response.status) }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: Self.largestPage)
            } catch {
                throw LoaderError.badResponse("a bucket listing that is too large or broken off")
            }
            let page = try S3AnswerParser.page(Data(body.readableBytesView))
            for folder in page.folders where folder.hasPrefix(prefix) && folder.count > prefix.count {
                listing.folders.append(StorageFolder(location: TrackLocation(source: bucket.source, key: folder),
                                                     name: String(folder.dropFirst(prefix.count).dropLast())))
            }
            // A key ending in `/` is a folder's marker (what consoles make for "new folder"), not a file.
            for object in page.objects where object.key.hasPrefix(prefix) && !object.key.hasSuffix("/") {
                // The listing's time written as `Last-Modified` writes it, so it compares with what GET says.
                let version = Validator(etag: object.etag, lastModified: object.lastModified.map(Validator.httpDate))
                listing.files.append(StorageFile(location: TrackLocation(source: bucket.source, key: object.key),
                                                 name: String(object.key.dropFirst(prefix.count)),
                                                 info: object.size.map { ResourceInfo(length: $0, validator: version?.text) }))
            }
            guard page.isTruncated else { return listing }
            guard let next = page.nextContinuationToken, !next.isEmpty, next != token else {
                throw LoaderError.badResponse("a truncated bucket listing without a new continuation token")
            }
            token = next
        }
        listing.problems.append("listed only the first \(Self.mostPages) pages of /\(prefix)")
        return listing
    }
}
