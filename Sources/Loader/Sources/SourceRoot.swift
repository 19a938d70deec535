import FoundationEssentials
import Model

/// A source's root in its canonical spelling, worked out once (when a `SourceSet` is made, or a
/// storage opened): it places canonical URLs in the source and gives their keys.
///
/// Keys and URLs map one to one. Where path segments are file names (`pathsAreNames`: a local
/// folder, WebDAV), the URL is spelled as names (`CanonicalURL.spelledAsNames`) and the key is the
/// decoded path below the root, each name as `TrackLocation.keySegment(naming:)` writes it (a
/// slash inside a name stays `%2F`). Elsewhere (an HTTP server, a feed) a path is only a path:
/// `(` and `%28` may name two things, so the key is the encoded path below the root, as it is.
/// A query is not part of a key.
package struct SourceRoot: Equatable, Sendable {
    package let source: String
    /// The root, as the source spells its URLs.
    package let url: CanonicalURL
    package let pathsAreNames: Bool
    /// The root's path, ending in `/`: what the path of a URL below it starts with.
    private let prefix: String

    /// Nil for a source without a root, or a root that is no `scheme://` URL.
    package init?(_ source: any SourceType) {
        guard let root = source.root else { return nil }
        self.init(source: source.name, root: root, pathsAreNames: source.pathsAreNames)
    }

    /// The root of a source being opened; an error for one that has none.
    package static func of(_ source: any SourceType) throws -> SourceRoot {
        guard let root = SourceRoot(source) else {
            throw LoaderError.configuration("source '\(source.name)': \(source.shownLocation) is no URL with a root")
        }
        return root
    }

    package init?(source: String, root: URL, pathsAreNames: Bool) {
        guard let url = CanonicalURL(root) else { return nil }
        self.source = source
        self.url = pathsAreNames ? url.spelledAsNames : url
        prefix = self.url.path.hasSuffix("/") ? self.url.path : self.url.path + "/"
        self.pathsAreNames = pathsAreNames
    }

    /// The root itself, as a location.
    package var location: TrackLocation {
        TrackLocation(source: source, key: "", url: url)
    }

    /// How much of a URL's path the root covers: of two roots that cover a URL, the deeper one
    /// places it.
    package var depth: Int { prefix.count }

    /// The location of `url` (canonical, as `CanonicalURL(_:)` spells it) in this source, or nil
    /// when it is not at or below the root. `asNames`: `url.spelledAsNames`, when the caller has it.
    package func location(of url: CanonicalURL, asNames: CanonicalURL? = nil) -> TrackLocation? {
        guard url.origin == self.url.origin else { return nil }
        let spelled = pathsAreNames ? asNames ?? url.spelledAsNames : url
        guard spelled.path.hasPrefix(prefix) || spelled.path + "/" == prefix else { return nil }
        let key = pathsAreNames ? spelled.names(after: prefix.count).map(TrackLocation.keySegment(naming:)).joined(separator: "/")
            : String(spelled.path.dropFirst(prefix.count))
        return TrackLocation(source: source, key: key, url: spelled)
    }

    /// The URL `key` names below the root (`cloudplayer://SOURCE/KEY` of a source rooted at a URL).
    package func url(ofKey key: String) -> URL {
        let path = pathsAreNames
            ? key.split(separator: "/", omittingEmptySubsequences: false)
                .map { CanonicalURL.segment(naming: TrackLocation.name(ofKeySegment: $0)) }.joined(separator: "/")
            : CanonicalURL.path(spelling: key)
        return URL(string: url.origin.description + prefix + path) ?? url.url
    }
}
