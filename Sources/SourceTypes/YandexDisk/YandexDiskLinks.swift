import Base
import Foundation

/// The download links in use, by path, each with the version and length of the file the API
/// described when the link was made. A link is used until it fails (403, 404, 410: expired) or
/// grows old; then a new one is asked for — the same file under a new link, so the cached bytes
/// stay. Links are never written anywhere.
final class YandexDiskLinks: Sendable {
    struct Link: Sendable {
        var url: URL
        /// The file's version tag (`YandexDiskVersion`) when the link was made.
        var version: String?
        var length: Int64
        var made: ContinuousClock.Instant
    }

    /// A link older than this is not used again (the API's links last hours; this keeps none
    /// forever).
    static let longest = Duration.seconds(30 * 60)

    private let links = Locked<[String: Link]>([:])

    func link(for path: String) -> Link? {
        links.withLock { links in
            guard let link = links[path] else { return nil }
            if link.made.duration(to: .now) > Self.longest {
                links[path] = nil
                return nil
            }
            return link
        }
    }

    func keep(_ link: Link, for path: String) {
        links.withLock { $0[path] = link }
    }

    /// Forgets the link `url` of `path` (not a newer one another download made meanwhile).
    func forget(_ url: URL, for path: String) {
        links.withLock { links in
            if links[path]?.url == url { links[path] = nil }
        }
    }
}
