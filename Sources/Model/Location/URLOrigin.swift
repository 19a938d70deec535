import FoundationEssentials

/// Scheme, host and port of a URL (RFC 6454), as `CanonicalURL` spells them: what credentials are
/// bound to, what a server that ignores `Range` is remembered by, what a source's root must share
/// with a URL below it. One type, so the three never disagree about case or default ports.
package struct URLOrigin: Hashable, Sendable, CustomStringConvertible {
    /// In lower case.
    package let scheme: String
    /// In lower case, escapes normalised; an IP-literal in its brackets; empty for `file:`.
    package let host: String
    /// Nil for the scheme's default port (`https://h:443` is `https://h`).
    package let port: Int?

    /// The origin of `url`; nil for a URL without an authority (`mailto:`) or with a port that is
    /// no number.
    package init?(_ url: URL) {
        guard let parts = URLText(url.absoluteURL.absoluteString) else { return nil }
        self.init(parts)
    }

    init?(_ parts: URLText) {
        let scheme = parts.scheme.lowercased()
        self.scheme = scheme
        // file://localhost/x and file:///x are one file; a file URL is written with no host.
        host = scheme == "file" ? "" : PercentEncoding.respell(parts.host.lowercased(), keeping: PercentEncoding.hostRaw, decoding: PercentEncoding.unreserved)
        if let text = parts.port, !text.isEmpty {
            guard let number = Int(text), number >= 0 else { return nil }
            port = number == Self.defaultPort(of: scheme) ? nil : number
        } else {
            port = nil
        }
    }

    /// `scheme://host[:port]`: the start of every canonical URL of this origin.
    package var description: String {
        "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    /// 80 for http, 443 for https (RFC 9110 §4.2); nil for schemes without one.
    package static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}

/// The parts of an absolute URL's text as written (RFC 3986 appendix B), before any normalising.
struct URLText {
    var scheme: Substring
    /// Without user and password, without the port.
    var host: Substring
    var port: Substring?
    var path: Substring
    var query: Substring?

    /// Nil for a text without `scheme://`.
    init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else { return nil }
        scheme = text[..<colon]
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterSlashes.endIndex
        var authority = afterSlashes[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        // An IP-literal ([::1]) holds colons of its own: the port's colon comes after its bracket.
        let hostEnd = authority.hasPrefix("[") ? authority.firstIndex(of: "]").map(authority.index(after:)) ?? authority.endIndex
            : authority.firstIndex(of: ":") ?? authority.endIndex
        host = authority[..<hostEnd]
        port = hostEnd < authority.endIndex && authority[hostEnd] == ":" ? authority[authority.index(after: hostEnd)...] : nil
        let tail = afterSlashes[authorityEnd...]
        let fragmentStart = tail.firstIndex(of: "#") ?? tail.endIndex
        let beforeFragment = tail[..<fragmentStart]
        if let mark = beforeFragment.firstIndex(of: "?") {
            path = beforeFragment[..<mark]
            query = beforeFragment[beforeFragment.index(after: mark)...]
        } else {
            path = beforeFragment
            query = nil
        }
    }
}
