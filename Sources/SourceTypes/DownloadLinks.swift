import AsyncHTTPClient
import Base
import Foundation

/// A cloud source's short-lived download links in use (Yandex.Disk's `href`, Graph's
/// pre-authenticated URL), by path, each with the version and length of the file the API
/// described when the link was made. A link is used until it fails (401, 403, 404, 410: expired)
/// or grows old; then a new one is asked for — the same file under a new link, so the cached
/// bytes stay. Links are never written anywhere.
final class DownloadLinks: Sendable {
    struct Link: Sendable {
        var url: URL
        /// The file's version tag (the provider's hash or content tag) when the link was made.
        var version: String?
        var length: Int64
        var made: ContinuousClock.Instant
        /// The download host's own entity tag for the bytes, as its first answer gave it: a later
        /// answer with another is of a changed file (nil: not answered yet, or the host gives none).
        var hostTag: String? = nil
    }

    /// A link older than this is not used again (providers' links last minutes to hours; this
    /// keeps none forever).
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

    /// Whether `response` (200 or 206 to `link`) is of the bytes the link's version names: its
    /// host tag is the link's first answer's (remembered now) or absent. A link serving a file's
    /// bytes as they are now (not a fixed version) would otherwise hand out a changed file's
    /// bytes under the old version's tag, mixed with the old ones in the cache.
    func agrees(_ response: HTTPClientResponse, with link: Link, for path: String) -> Bool {
        guard let tag = response.headers.first(name: "ETag") else { return true }
        return links.withLock { links in
            guard var kept = links[path], kept.url == link.url else { return link.hostTag == nil || link.hostTag == tag }
            if let known = kept.hostTag { return known == tag }
            kept.hostTag = tag
            links[path] = kept
            return true
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
