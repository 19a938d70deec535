import FoundationEssentials

/// A URL in its one spelling (RFC 3986 §6.2.2 and §6.2.3), worked out on its encoded text — never
/// on Foundation's decoded `path`, which turns `AC%2FDC.mp3` into two segments and `%3B` into `;`
/// and so names another resource. Scheme and host in lower case, the scheme's default port
/// dropped (`URLOrigin`); escapes of unreserved characters decoded, the others in upper-case hex,
/// characters that may not stand raw escaped; dot segments removed (also `%2E%2E`, which is `..`);
/// an empty path is `/`. The query is kept, its escapes normalised the same way; user, password
/// and fragment are dropped. A reserved character is never decoded.
///
/// A `file:` URL's path is spelled as names (`spelledAsNames`): its segments are file names.
package struct CanonicalURL: Hashable, Sendable, CustomStringConvertible {
    package let origin: URLOrigin
    /// Encoded, never empty, without dot segments.
    package let path: String
    /// Encoded, as the URL had it (a download link may need it).
    package let query: String?

    /// Nil for a URL without `scheme://`.
    package init?(_ url: URL) {
        guard let parts = URLText(url.absoluteURL.absoluteString), let origin = URLOrigin(parts) else { return nil }
        self.origin = origin
        let path = Self.removingDotSegments(PercentEncoding.respell(parts.path, keeping: PercentEncoding.pathRaw,
                                                                     decoding: PercentEncoding.unreserved))
        self.path = origin.scheme == "file" ? Self.spelledAsNames(path) : path
        query = parts.query.map { PercentEncoding.respell($0, keeping: PercentEncoding.queryRaw, decoding: PercentEncoding.unreserved) }
    }

    private init(origin: URLOrigin, path: String, query: String?) {
        self.origin = origin
        self.path = path
        self.query = query
    }

    /// The text: what a location's `uri` is.
    package var description: String {
        origin.description + path + (query.map { "?" + $0 } ?? "")
    }

    package var url: URL {
        // Every byte of the text is one a URL may hold: it always parses.
        URL(string: description)!
    }

    /// The same URL for a server whose path segments are file names — a folder on this machine, a
    /// WebDAV server — which decodes a segment to find its file: there `(` and `%28` name one
    /// file (§6.2.3, scheme- and protocol-based normalisation), so each segment is decoded and
    /// spelled again the way `URL(fileURLWithPath:)` spells a name (`pchar` raw). An escaped slash
    /// stays escaped: `AC%2FDC.mp3` is one name. `;` and `+` stay escaped too (path parameters,
    /// form decoders), and escaped ones are kept.
    package var spelledAsNames: CanonicalURL {
        origin.scheme == "file" ? self : CanonicalURL(origin: origin, path: Self.spelledAsNames(path), query: query)
    }

    /// The names of the path's segments below its first `count` characters (a root's path,
    /// ending in `/`): each segment decoded — a segment that is not UTF-8 stays as it is spelled.
    package func names(after count: Int) -> [String] {
        path.dropFirst(count).split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.decoded($0) ?? String($0) }
    }

    /// An encoded path (a key below a root whose paths are only paths) as a canonical path spells
    /// it: escapes kept (in upper-case hex, unreserved ones decoded), what may not stand raw escaped.
    package static func path(spelling encoded: String) -> String {
        PercentEncoding.respell(encoded, keeping: PercentEncoding.pathRaw, decoding: PercentEncoding.unreserved)
    }

    /// A name as a path segment, spelled as `spelledAsNames` spells it.
    package static func segment(naming name: String) -> String {
        PercentEncoding.encoded(name, keeping: PercentEncoding.nameRaw)
    }

    private static func spelledAsNames(_ path: String) -> String {
        PercentEncoding.respell(path, keeping: PercentEncoding.nameRaw.union(PercentEncoding.Bytes("/")), decoding: PercentEncoding.nameRaw)
    }

    /// RFC 3986 §5.2.4 on an absolute path (`/a/b/../c/./d` is `/a/c/d`); "" is "/".
    private static func removingDotSegments(_ path: String) -> String {
        let segments = Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
        var kept: [Substring] = []
        for (index, segment) in segments.enumerated() {
            switch segment {
            case ".": break
            case "..": if !kept.isEmpty { kept.removeLast() }
            default: kept.append(segment); continue
            }
            if index == segments.count - 1 { kept.append("") }  // `/a/b/..` is the folder `/a/`
        }
        return "/" + kept.joined(separator: "/")
    }
}
