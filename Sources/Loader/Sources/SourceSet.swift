import Foundation
import Model

/// The configured sources, and which of them a URL or a typed reference names: where a track is.
package struct SourceSet: Sendable {
    package let all: [any SourceType]

    package init(_ sources: [any SourceType] = []) {
        all = sources
    }

    package func source(named name: String) -> (any SourceType)? {
        all.first { $0.name == name }
    }

    /// The location of `url`: in the source whose root is the longest prefix of it, else in none.
    /// Judged as the URL will be fetched (dot segments resolved, `%2e%2e` too), so one location
    /// never has two answers.
    package func location(of url: URL) -> TrackLocation {
        let url = TrackLocation.canonical(url)
        let covering = all.compactMap { source -> (any SourceType, URL, Int)? in
            guard let root = source.root, let covered = Self.coverage(of: url, by: root) else { return nil }
            return (source, root, covered)
        }.max { $0.2 < $1.2 }
        guard let (source, root, _) = covering else { return TrackLocation(url: url) }
        return TrackLocation(source: source.name, rootPath: Self.rootPath(root), url: url)
    }

    /// What a user names: `cloudplayer://SOURCE/KEY`, an http(s) or file URL, or else a path on
    /// this machine (relative to `directory`).
    package func location(of text: String, relativeTo directory: URL? = nil) -> TrackLocation {
        if let (name, key) = TrackLocation.sourceAndKey(in: text) {
            // A source rooted at a URL names its tracks by their URL: the key is a path below it.
            if let root = source(named: name)?.root { return location(of: root.appendingPathComponent(key)) }
            return TrackLocation(source: name, key: key)
        }
        if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) {
            return location(of: url)
        }
        return location(of: URL(fileURLWithPath: text, relativeTo: directory).standardizedFileURL)
    }

    /// The location of a folder (or file) inside the source rooted at `root`.
    package static func location(in source: String, root: URL, of url: URL) -> TrackLocation {
        TrackLocation(source: source, rootPath: rootPath(root), url: url)
    }

    /// How many characters of `url` the root covers, or nil if `url` is not below it. A path that
    /// climbs (`..`, also written `%2e%2e`, which the server resolves) is below nothing: it gets
    /// no credentials.
    package static func coverage(of url: URL, by root: URL) -> Int? {
        guard url.scheme?.lowercased() == root.scheme?.lowercased(), url.host?.lowercased() == root.host?.lowercased(),
              url.port ?? defaultPort(url) == root.port ?? defaultPort(root) else { return nil }
        guard !url.path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let base = rootPath(root)
        let path = url.path.hasSuffix("/") ? url.path : url.path + "/"
        guard path.hasPrefix(base) || base == "/" else { return nil }
        return base.count
    }

    /// A root's path, decoded, ending in `/`.
    package static func rootPath(_ root: URL) -> String {
        let path = TrackLocation.canonical(root).path
        return path.hasSuffix("/") ? path : path + "/"
    }

    package static func defaultPort(_ url: URL) -> Int {
        url.scheme?.lowercased() == "https" ? 443 : 80
    }

    /// Whether two URLs are on the same origin (scheme, host, port): where credentials may go.
    package static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
    }
}
