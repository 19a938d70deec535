import Base
import FoundationEssentials

/// A proxy as the environment (`https_proxy`, `all_proxy`, …) or the config (`proxy = …`) names
/// it, read the way curl reads it: `http://[user:password@]host[:port]`, `socks5://host[:port]`,
/// `socks5h://…`, or a bare `host:port`, which is an HTTP proxy; the port is 1080 when none is
/// given (curl's default for every kind). Printed as `scheme://host:port` only: the user name and
/// the password never reach a log or an error.
package struct ProxyServer: Sendable, Equatable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        /// An HTTP proxy: every request goes through a `CONNECT` tunnel, `http://` targets too
        /// (where curl's command would send the absolute URL).
        case http
        /// SOCKS5. The host *name* is sent to the proxy, as with `socks5h` (where curl's command
        /// would resolve it first): a name only the proxy's network knows is reached.
        case socks5
        case socks5h
    }

    package var kind: Kind
    package var host: String
    package var port: Int
    /// For `Proxy-Authorization: Basic` (HTTP proxies only).
    package var username: String?
    package var password: Secret.Origin?

    package init(kind: Kind, host: String, port: Int, username: String? = nil, password: Secret.Origin? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    package var description: String {
        "\(kind.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(description)
        hasher.combine(username)
    }

    /// Reads a proxy URL; the error says what is wrong without quoting the text (it may hold a
    /// password).
    package static func parse(_ text: String) throws(ProxyURLError) -> ProxyServer {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw ProxyURLError("is empty") }
        let full = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased() else {
            throw ProxyURLError("is not a proxy URL (expected http://host:port, socks5://host:port or socks5h://host:port)")
        }
        guard let kind = Kind(rawValue: scheme) else {
            throw ProxyURLError("the proxy scheme '\(scheme)' is not supported (http://, socks5:// and socks5h:// are)")
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else { throw ProxyURLError("names no proxy host") }
        guard url.path.isEmpty || url.path == "/", url.query == nil else { throw ProxyURLError("a proxy URL has no path") }
        if let port = url.port, !(1...65535).contains(port) { throw ProxyURLError("the proxy port must be 1 to 65535") }
        let username = url.user(percentEncoded: false)
        guard kind == .http || username == nil else {
            throw ProxyURLError("a SOCKS5 proxy with a user name is not supported (only HTTP proxies take credentials)")
        }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return ProxyServer(kind: kind, host: bareHost.lowercased(), port: url.port ?? 1080, username: username,
                           password: url.password(percentEncoded: false).map { .inline(Secret($0)) })
    }
}
