import FoundationEssentials

/// Where a track is: the configured source that serves it and its key there, in one spelling.
///
/// For a source rooted at a URL — a local folder, a WebDAV or HTTP server — the text form (`uri`)
/// is the URL itself in its one spelling (`CanonicalURL`), so a track keeps the location it had
/// in libraries, state files and caches made before. A source whose files have no URL (an S3 key,
/// a provider's file id) names them `cloudplayer://SOURCE/KEY`, the key written as it is, only
/// percent-encoded — never dot- or case-normalised: the S3 key `a/../b.mp3` is not `b.mp3`. A file
/// or a URL that no source covers has no source; its key and its text form are its canonical URL.
///
/// The library, the queue, the state file and the cache all key on `uri`. A download link, a
/// signed URL or a credential never goes into it: a source turns a location into what it fetches.
package struct TrackLocation: Hashable, Sendable, CustomStringConvertible {
    /// The scheme of locations in sources without URLs.
    package static let scheme = "cloudplayer"

    /// The `[[source]]` that serves it; nil for a file or a URL no source covers.
    package var source: String? { parts.source }
    /// Its key in that source; for no source, the canonical URL.
    package var key: String { parts.key }
    /// Its one text form: what `cloudplayerctl ls --json` prints as `url`, what `play` and
    /// `queue add` take, what the library, the queue, the state file and the cache key store.
    package var uri: String { parts.uri }
    /// For a link a remote document named (a feed's episode, a playlist's or a station list's
    /// entry) that is not on that document's own source: the name of the document's source (""
    /// for a document of none). Such a link is fetched without any source's credentials, and not
    /// at all on this machine or its network. Nil for what the user, the config or a file of this
    /// machine named. Not part of the identity (`uri`): the same track, trusted less.
    package var namedBy: String? { parts.namedBy }

    /// The four texts, held once: a location is copied wherever a queue, a snapshot or a map
    /// goes (a queue of 20,000 in every player event), and a copy is then one reference, not four.
    private var parts: Parts

    private final class Parts: Sendable {
        let source: String?
        let key: String
        let uri: String
        let namedBy: String?

        init(source: String?, key: String, uri: String, namedBy: String?) {
            self.source = source
            self.key = key
            self.uri = uri
            self.namedBy = namedBy
        }
    }

    /// `namedBy` of a URL a stranger named (an MPD client of another user or machine,
    /// `QueueIntake.strangersLocation`): a link as any other, and never let onto this machine's
    /// or its network's addresses, whatever `allow_private_links` says. No source can be named
    /// so by accident (a control character); one named so would only make its links stricter.
    package static let strangersLinks = "\u{1}a stranger's MPD client"

    /// Whether a stranger named it (`strangersLinks`).
    package var isStrangersLink: Bool { namedBy == Self.strangersLinks }

    /// A file or a URL no source covers (`url` is made canonical).
    package init(url: URL) {
        if let canonical = CanonicalURL(url) {
            self.init(canonical)
        } else {
            self.init(source: nil, key: url.absoluteString, uri: url.absoluteString)
        }
    }

    /// A URL no source covers, spelled already.
    package init(_ url: CanonicalURL) {
        self.init(source: nil, key: url.description, uri: url.description)
    }

    /// A location in a source rooted at a URL: `url`, spelled already as that source spells it,
    /// and `key`, the path below the root (see `keySegment(naming:)`). `SourceRoot` makes these.
    package init(source: String, key: String, url: CanonicalURL) {
        self.init(source: source, key: key, uri: url.description)
    }

    /// A location in a source whose files have no URL: `key` is the provider's, as it is.
    package init(source: String, key: String) {
        let uri = "\(Self.scheme)://\(Self.encode(source))/\(key.split(separator: "/", omittingEmptySubsequences: false).map { Self.encode(String($0)) }.joined(separator: "/"))"
        parts = Parts(source: source, key: key, uri: uri, namedBy: nil)
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
        parts = Parts(source: source, key: key, uri: uri, namedBy: nil)
    }

    /// The source and key a `cloudplayer://SOURCE/KEY` text names, if it is one.
    package static func sourceAndKey(in text: String) -> (source: String, key: String)? {
        let prefix = scheme + "://"
        guard text.lowercased().hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), let source = PercentEncoding.decoded(rest[..<slash]), !source.isEmpty else { return nil }
        let segments = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
        var decoded: [String] = []
        for segment in segments {
            guard let text = PercentEncoding.decoded(segment) else { return nil }
            decoded.append(text)
        }
        let key = decoded.joined(separator: "/")
        return key.isEmpty ? nil : (source, key)
    }

    /// The same location as a link named by a remote document of `source` ("" for none), or,
    /// with nil, as trusted as the one it came from.
    package func named(by source: String?) -> TrackLocation {
        var link = self
        link.parts = Parts(source: parts.source, key: parts.key, uri: parts.uri, namedBy: source)
        return link
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

    /// Its identity up to the last `/` of the path: the folder it is in, to tell tracks of one
    /// folder (an album, usually) when no tags say more.
    package var folder: Substring {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        return path[..<(path.lastIndex(of: "/") ?? path.endIndex)]
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

    /// A file name as a segment of a key below a URL root (WebDAV, a local folder), where a key is
    /// the decoded path: the name as it is, but for `/` in a name (`AC%2FDC.mp3` on the server),
    /// written `%2F`, and a `%` that would be read as the start of `%2F` or `%25`, written `%25`.
    /// So every key maps to one URL and back (`name(ofKeySegment:)` undoes it), and a key is the
    /// plain decoded path for every name without such a slash or percent — as keys always were.
    package static func keySegment(naming name: String) -> String {
        guard name.contains("/") || name.contains("%") else { return name }
        var segment = ""
        var rest = Substring(name)
        while let first = rest.first {
            rest = rest.dropFirst()
            switch first {
            case "/": segment += "%2F"
            case "%" where ["2F", "25"].contains(rest.prefix(2).uppercased()): segment += "%25"
            default: segment.append(first)
            }
        }
        return segment
    }

    /// The file name a key segment stands for: `keySegment(naming:)` undone.
    package static func name(ofKeySegment segment: Substring) -> String {
        guard segment.contains("%") else { return String(segment) }
        var name = ""
        var rest = segment
        while let first = rest.first {
            let escape = first == "%" ? rest.prefix(3).uppercased() : ""
            if escape == "%2F" || escape == "%25" {
                name += escape == "%2F" ? "/" : "%"
                rest = rest.dropFirst(3)
            } else {
                name.append(first)
                rest = rest.dropFirst()
            }
        }
        return name
    }

    /// A source name or key segment in a `cloudplayer:` text: unreserved characters as they are,
    /// everything else percent-encoded — and `.`/`..` too, so no URL parser resolves them.
    private static func encode(_ segment: String) -> String {
        if segment == "." || segment == ".." { return String(repeating: "%2E", count: segment.count) }
        return PercentEncoding.encoded(segment, keeping: PercentEncoding.unreserved)
    }
}
