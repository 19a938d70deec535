import Base
import Cache
import FoundationEssentials
import Model
import Parsers

/// What a feed keeps apart from its episodes' files: Podcasting 2.0's chapters file, and the
/// chapters' pictures.
extension LoaderActor {
    /// The chapters in the file at `location` (an episode's `TrackMetadata.chaptersURL`); nil
    /// when they cannot be had (only logged: the episode plays without them).
    package func chapters(at location: TrackLocation) async -> [Chapter]? {
        do {
            let file = try await keptFile(at: location, kind: "chapters", limit: PodcastChaptersJSON.maxBytes)
            let bytes = try await BlockingPool.shared.run { [UInt8](try Data(contentsOf: file)) }
            do {
                return try PodcastChaptersJSON.parse(bytes, base: location.url)
            } catch {
                try? await BlockingPool.shared.run { try FileManager.default.removeItem(at: file) }  // asked again next time
                throw error
            }
        } catch {
            logger.notice("the episode's chapters file cannot be read", metadata: ["chapters": "\(location.publicURI)", "reason": "\(error)"])
            return nil
        }
    }

    /// A local file holding a chapter's picture, for MPRIS's `mpris:artUrl`; a linked one is
    /// fetched as trusted as `namedBy` says (the source whose document named it). Nil when it
    /// cannot be had, or is no picture.
    package func chapterArtwork(_ art: ChapterArt, namedBy source: String?) async -> URL? {
        switch art {
        case .embedded(let picture):
            return try? await storeArtwork(picture)
        case .link(let url):
            let location = TrackLocation(uri: url).named(by: source)
            do {
                let file = try await keptFile(at: location, kind: "picture", limit: 16 << 20)
                let head = try await BlockingPool.shared.run { try FileByteSource(path: file.path).readBytes(in: 0..<12) }
                guard Artwork.imageType(of: head) != nil else {
                    try? await BlockingPool.shared.run { try FileManager.default.removeItem(at: file) }
                    throw LoaderError.badResponse("not a JPEG, PNG, GIF or WebP picture")
                }
                return file
            } catch {
                logger.notice("a chapter's picture cannot be had", metadata: ["picture": "\(location.publicURI)", "reason": "\(error)"])
                return nil
            }
        }
    }

    /// A small file a document links, kept beside the cover art once fetched — a replay, offline
    /// too, reads it from disk — named by a hash of where it is.
    private func keptFile(at location: TrackLocation, kind: String, limit: Int) async throws -> URL {
        let file = artwork.directory.appendingPathComponent("\(kind)-\(String(FNVHash.hash(Array(location.uri.utf8)), radix: 16))")
        if (try? await BlockingPool.shared.run { FileManager.default.fileExists(atPath: file.path) }) == true { return file }
        guard let fetched = try await document(location, limit: limit) else { throw LoaderError.badResponse("an empty answer") }
        let directory = artwork.directory
        try await BlockingPool.shared.run {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(fetched.bytes, to: file)
        }
        return file
    }
}
