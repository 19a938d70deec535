import Foundation

/// Where a track is: the configured source that serves it and its key there, in one spelling.
///
/// For a source rooted at a URL — a local folder, a WebDAV or HTTP server — the key is the path
/// below the root, decoded and normalised, and the text form (`uri`) is the URL itself, so a track
/// keeps the location it had in libraries, state files and caches made before. A source whose
/// files have no URL (an S3 key, a provider's file id) names them `cloudplayer://SOURCE/KEY`, the
/// key written as it is, only percent-encoded — never dot- or case-normalised: the S3 key
/// `a/../b.mp3` is not `b.mp3`. A file or a URL that no source covers has no source; its key and
/// its text form are its canonical URL.
///
/// The library, the queue, the state file and the cache all key on `uri`. A download link, a
/// signed URL or a credential never goes into it: a source turns a location into what it fetches.
package struct TrackLocation: Hashable, Sendable, CustomStringConvertible {
    /// The scheme of locations in sources without URLs.
    package static let scheme = "cloudplayer"

    /// The `[[source]]` that serves it; nil for a file or a URL no source covers.
    package let source: String?
    /// Its key in that source; for no source, the canonical URL.
    package let key: String
    /// Its one text form: what `cloudplayerctl ls --json` prints as `url`, what `play` and
    /// `queue add` take, what the library, the queue, the state file and the cache key store.
    package let uri: String

    /// A file or a URL no source covers (`url` is made canonical).
    package init(url: URL) {
        let canonical = Self.canonical(url).absoluteString
        source = nil
        key = canonical
        uri = canonical
    }

    /// A location in a source rooted at a URL: `url`, below the root; its key is the path below
    /// `rootPath` (the root's path, decoded, ending in `/`).
    package init(source: String, rootPath: String, url: URL) {
        let canonical = Self.canonical(url)
        self.source = source
        key = canonical.path.hasPrefix(rootPath) ? String(canonical.path.dropFirst(rootPath.count)) : canonical.path
        uri = canonical.absoluteString
    }

    /// A location in a source whose files have no URL: `key` is the provider's, as it is.
    package init(source: String, key: String) {
        self.source = source
        self.key = key
        uri = "\(Self.scheme)://\(Self.encode(source))/\(key.split(separator: "/", omittingEmptySubsequences: false).map { Self.encode(String($0)) }.joined(separator: "/"))"
    }

    /// A stored text form read back without the configured sources — to show, not to fetch (a
    /// `SourceSet` places a text among the sources).
    package init(uri text: String) {
        if let (source, key) = Self.sourceAndKey(in: text) {
            self.init(source: source, key: key)
        } else if let url = URL(string: text) {
            self.init(url: url)
        } else {
            self.init(source: nil, key: text, uri: text)
        }
    }

    private init(source: String?, key: String, uri: String) {
        self.source = source
        self.key = key
        self.uri = uri
    }

    /// The source and key a `cloudplayer://SOURCE/KEY` text names, if it is one.
    package static func sourceAndKey(in text: String) -> (source: String, key: String)? {
        let prefix = scheme + "://"
        guard text.lowercased().hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), let source = rest[..<slash].removingPercentEncoding, !source.isEmpty else { return nil }
        let segments = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
        var decoded: [String] = []
        for segment in segments {
            guard let text = segment.removingPercentEncoding else { return nil }
            decoded.append(text)
        }
        let key = decoded.joined(separator: "/")
        return key.isEmpty ? nil : (source, key)
    }

    package var description: String { publicURI }

    package static func == (lhs: TrackLocation, rhs: TrackLocation) -> Bool { lhs.uri == rhs.uri }
    package func hash(into hasher: inout Hasher) { hasher.combine(uri) }

    /// The URL it is at, for a file or a source rooted at a URL; nil in a source without URLs.
    package var url: URL? {
        guard source == nil || !uri.hasPrefix(Self.scheme + "://") else { return nil }
        return URL(string: uri)
    }

    /// Whether it is a file on this machine.
    package var isFile: Bool { uri.hasPrefix("file:") }

    /// The text form as it may be shown to anyone (MPRIS metadata, logs): without the query a
    /// plain URL may need to be fetched (it may carry a token).
    package var publicURI: String {
        guard let url, !url.isFileURL, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return uri }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? uri
    }

    /// What to call the track in messages: its file name, never a user, password or query.
    package var displayName: String {
        if let url {
            let name = url.lastPathComponent
            return name.isEmpty || name == "/" ? (url.host ?? "track") : name
        }
        return key.split(separator: "/").last.map(String.init) ?? key
    }

    // MARK: Spelling

    /// One spelling per URL: servers percent-encode paths as they like (`(` or `%28`, `é` or
    /// `%C3%A9`), so a URL is rebuilt from its decoded parts — the path decoded, its dot segments
    /// resolved (also `%2e%2e`, which a plain URL keeps) and encoded again; scheme and host in
    /// lower case; the query kept (a download link may need it); user, password and fragment gone.
    package static func canonical(_ url: URL) -> URL {
        var parts = URLComponents()
        parts.scheme = url.scheme?.lowercased()
        parts.host = url.isFileURL ? "" : url.host?.lowercased()  // file:///path, never file:/path
        parts.port = url.port
        parts.path = url.path.isEmpty ? "/" : url.path
        if url.hasDirectoryPath, !parts.path.hasSuffix("/") { parts.path += "/" }
        parts.percentEncodedQuery = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery
        return (parts.url ?? url).standardized
    }

    /// A source name or key segment in a `cloudplayer:` text: unreserved characters as they are,
    /// everything else percent-encoded — and `.`/`..` too, so no URL parser resolves them.
    private static func encode(_ segment: String) -> String {
        if segment == "." || segment == ".." { return String(repeating: "%2E", count: segment.count) }
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
