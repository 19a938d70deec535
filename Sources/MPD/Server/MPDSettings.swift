import Glibc
import Config

/// `[mpd]` of the config file, checked: where to listen, and the password (resolved).
package struct MPDSettings: Sendable {
    /// Where to listen (empty: the server is off).
    package var listen: [MPDAddress]
    /// The `password` command's password; nil: every client may do everything.
    package var password: Secret?
    /// What a client may do before it sends the password (MPD's `default_permissions`).
    package var defaultPermissions: MPDPermission
    /// How much each client may hold.
    package var limits: MPDLimits

    package init(listen: [MPDAddress] = [], password: Secret? = nil, defaultPermissions: MPDPermission = .none, limits: MPDLimits = MPDLimits()) {
        self.listen = listen
        self.password = password
        self.defaultPermissions = defaultPermissions
        self.limits = limits
    }
}

/// One place to listen: a TCP host and port, or a unix socket's path.
package enum MPDAddress: Sendable, Hashable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// `host:port`, `[v6]:port`, or a path (starting with `/`); nil if it is none of them.
    package init?(_ text: String) {
        if text.hasPrefix("/") {
            self = .unix(path: text)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty else { return nil }
        self = .tcp(host: host, port: port)
    }

    package var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path
        }
    }

    /// Whether the config file alone shows that other machines could reach it: an address
    /// literal that is not loopback (a name is told by what it resolves to, when it is bound:
    /// `127.lan.example` may well be a LAN address).
    package var isPlainlyReachable: Bool {
        switch self {
        case .unix: return false
        case .tcp(let host, _):
            var v4 = in_addr(), v6 = in6_addr()
            if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 != 127 }
            if inet_pton(AF_INET6, host, &v6) == 1 { return host != "::1" && !host.lowercased().hasPrefix("::ffff:127.") }
            return false
        }
    }
}
