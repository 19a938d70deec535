import FoundationEssentials
import Model

/// The configured sources, and which of them a URL or a typed reference names: where a track is.
package struct SourceSet: Sendable {
    package let all: [any SourceType]
    /// The roots of the sources rooted at a URL, spelled once here.
    let roots: [SourceRoot]

    package init(_ sources: [any SourceType] = []) {
        all = sources
        roots = sources.compactMap(SourceRoot.init)
    }

    /// Whether `other` places every URL where this set does: the same roots, spelled alike.
    package func placesAlike(_ other: SourceSet) -> Bool {
        roots == other.roots
    }

    package func source(named name: String) -> (any SourceType)? {
        all.first { $0.name == name }
    }

    /// The location of `url`: in the source whose root is the longest prefix of it, else in none.
    /// Judged as the URL will be fetched (dot segments resolved, `%2e%2e` too), so one location
    /// never has two answers.
    package func location(of url: URL) -> TrackLocation {
        if url.scheme?.lowercased() == TrackLocation.scheme {
            // `cloudplayer://SOURCE/KEY`; one naming no track stays as it is, and fails as such.
            return TrackLocation.sourceAndKey(in: url.absoluteString) == nil ? TrackLocation(url: url) : location(of: url.absoluteString)
        }
        guard let canonical = CanonicalURL(url) else { return TrackLocation(url: url) }
        return location(of: canonical)
    }

    /// The location of a URL spelled already (`CanonicalURL`), which is not spelled again.
    package func location(of url: CanonicalURL) -> TrackLocation {
        var asNames: CanonicalURL?
        var placed: (location: TrackLocation, depth: Int)?
        for root in roots where root.url.origin == url.origin && root.depth > placed?.depth ?? -1 {
            if root.pathsAreNames, asNames == nil { asNames = url.spelledAsNames }
            if let location = root.location(of: url, asNames: asNames) { placed = (location, root.depth) }
        }
        return placed?.location ?? TrackLocation(url)
    }

    /// What a user names: `cloudplayer://SOURCE/KEY`, an http(s) or file URL, or else a path on
    /// this machine (relative to `directory`).
    package func location(of text: String, relativeTo directory: URL? = nil) -> TrackLocation {
        if let (name, key) = TrackLocation.sourceAndKey(in: text) {
            // A source rooted at a URL names its tracks by their URL: the key is a path below it.
            if let root = roots.first(where: { $0.source == name }) { return location(of: root.url(ofKey: key)) }
            return TrackLocation(source: name, key: key)
        }
        if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) {
            return location(of: url)
        }
        return location(of: URL(fileURLWithPath: text, relativeTo: directory).standardizedFileURL)
    }
}
