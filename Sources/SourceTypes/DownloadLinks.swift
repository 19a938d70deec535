import Base
import FoundationEssentials
import Loader
import Model
import NIOHTTP1

/// A cloud source's short-lived download links in use (Yandex.Disk's `href`, Graph's
/// pre-authenticated URL, Drive's revision address), by key, each with the version and length of
/// the file the API described when the link was made — and the one loop that reads through them:
/// the link in use is fetched; one that has expired, or whose host says the file changed, is
/// forgotten and a new one asked for, once — the same file under a new link, so the cached bytes
/// stay. Links are never written anywhere.
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

    /// A link just made; and, when making it fetched the bytes already (Graph's `/content`
    /// redirects to its link), that answer — the link kept only if it answered the bytes and is
    /// `reusable` (not the API's own address).
    struct Made: Sendable {
        var link: Link
        var answer: HTTPAnswer? = nil
        var reusable = true
    }

    /// A link older than this is not used again (providers' links last minutes to hours; this
    /// keeps none forever).
    static let longest = Duration.seconds(30 * 60)

    /// What a link answers once it has expired (Graph's 401, Yandex's 403 or 410, Drive's 404 of a
    /// revision gone).
    let expiredOn: Set<UInt>
    /// Whether the download host's `ETag` is compared with the link's first: a link that serves a
    /// path's bytes as they are now (not a fixed revision) would otherwise hand out a changed
    /// file's bytes under the old version's tag, mixed with the old ones in the cache.
    let comparesHostTags: Bool
    private let links = Locked<[String: Link]>([:])

    init(expiredOn: Set<UInt>, comparesHostTags: Bool) {
        self.expiredOn = expiredOn
        self.comparesHostTags = comparesHostTags
    }

    /// The bytes of `key` (the file `path` of `source`, for messages) with the loader's `headers`
    /// but `If-Range` (the download host knows no such tag): through the link in use (`fetch`),
    /// else a new one (`make`); a link that answers expired or changed is forgotten (`forgotten`
    /// is told, for what the provider keeps beside it) and a new one made, once. The answer is
    /// stated with the link's version (`DownloadAnswer`); `failure` words a refusal.
    nonisolated(nonsending) func get(_ key: String, headers: HTTPHeaders, source: String, path: String,
                                     make: nonisolated(nonsending) (HTTPHeaders) async throws -> Made,
                                     fetch: nonisolated(nonsending) (URL, HTTPHeaders) async throws -> HTTPAnswer,
                                     failure: (HTTPResponseStatus, [UInt8]) -> LoaderError,
                                     forgotten: () -> Void = {}) async throws -> HTTPAnswer {
        var headers = headers
        headers.remove(name: "If-Range")
        var retried = false
        while true {
            let link: Link
            let response: HTTPAnswer
            if let kept = self.link(for: key) {
                link = kept
                response = try await fetch(kept.url, headers)
            } else {
                let made = try await make(headers)
                if let answer = made.answer {
                    if made.reusable && [200, 206].contains(answer.status.code) {
                        var link = made.link
                        link.hostTag = comparesHostTags ? answer.headers.first(name: "ETag") : nil
                        keep(link, for: key)
                    }
                    return try await DownloadAnswer.stated(answer, version: made.link.version, source: source, path: path, failure: failure)
                }
                link = made.link
                keep(link, for: key)
                response = try await fetch(link.url, headers)
            }
            let changed = comparesHostTags && [200, 206].contains(response.status.code) && !agrees(response, with: link, for: key)
            if (expiredOn.contains(response.status.code) || changed) && !retried {
                // Expired: a new link for the same file; or the file changed: a new link and
                // version for the new one (stated as such, so the loader never mixes the two).
                _ = try? await response.body.collect(upTo: 1 << 16)
                retried = true
                forget(link.url, for: key)
                forgotten()
                continue
            }
            if changed {
                _ = try? await response.body.collect(upTo: 1 << 16)
                throw LoaderError.changedOnServer
            }
            return try await DownloadAnswer.stated(response, version: link.version, source: source, path: path, failure: failure)
        }
    }

    private func link(for key: String) -> Link? {
        links.withLock { links in
            guard let link = links[key] else { return nil }
            if link.made.duration(to: .now) > Self.longest {
                links[key] = nil
                return nil
            }
            return link
        }
    }

    /// Whether `response` (200 or 206 to `link`) is of the bytes the link's version names: its
    /// host tag is the link's first answer's (remembered now) or absent.
    private func agrees(_ response: HTTPAnswer, with link: Link, for key: String) -> Bool {
        guard let tag = response.headers.first(name: "ETag") else { return true }
        return links.withLock { links in
            guard var kept = links[key], kept.url == link.url else { return link.hostTag == nil || link.hostTag == tag }
            if let known = kept.hostTag { return known == tag }
            kept.hostTag = tag
            links[key] = kept
            return true
        }
    }

    private func keep(_ link: Link, for key: String) {
        links.withLock { $0[key] = link }
    }

    /// Forgets the link `url` of `key` (not a newer one another download made meanwhile).
    private func forget(_ url: URL, for key: String) {
        links.withLock { links in
            if links[key]?.url == url { links[key] = nil }
        }
    }
}
