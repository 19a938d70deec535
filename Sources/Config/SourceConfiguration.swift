import Foundation

/// One `[[source]]` of the config file: a server, its root URL and how to prove who we are.
package struct SourceConfiguration: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        /// A WebDAV server: scanned folder by folder with PROPFIND.
        case webdav
        /// Plain HTTP(S) behind credentials: played from, not scanned (it cannot list).
        case http
        /// A podcast (RSS or Atom) feed: its enclosures are the tracks, newest first.
        case feed
        /// A folder on this machine (`path`).
        case local
    }

    package let name: String
    package let kind: Kind
    /// The root: URLs below it use this source's credentials.
    package let url: URL
    package let username: String?
    package let password: Secret.Origin?
    package let token: Secret.Origin?
    /// Extra request headers (`Authorization = "Bearer …"` among them); values are treated as secrets.
    package let headers: [(name: String, value: Secret)]
    /// A PEM file of certificates to trust for this server (a self-signed one, say).
    package let tlsCAFile: String?

    package init(name: String, kind: Kind, url: URL, username: String? = nil, password: Secret.Origin? = nil,
                token: Secret.Origin? = nil, headers: [(name: String, value: Secret)] = [], tlsCAFile: String? = nil) {
        self.name = name
        self.kind = kind
        self.url = url
        self.username = username
        self.password = password
        self.token = token
        self.headers = headers
        self.tlsCAFile = tlsCAFile
    }

    package static func == (lhs: SourceConfiguration, rhs: SourceConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.url == rhs.url && lhs.username == rhs.username
            && lhs.password == rhs.password && lhs.token == rhs.token && lhs.tlsCAFile == rhs.tlsCAFile
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// How many characters of `url` this source's root covers, or nil if `url` is not below it.
    /// The longest match wins when sources nest.
    package func coverage(of url: URL) -> Int? {
        guard url.scheme?.lowercased() == self.url.scheme?.lowercased(),
              url.host?.lowercased() == self.url.host?.lowercased(),
              url.port ?? Self.defaultPort(url) == self.url.port ?? Self.defaultPort(self.url) else { return nil }
        // A path that climbs (`..`, also written `%2e%2e`, which the server resolves) is not
        // below anything: it gets no credentials.
        guard !url.path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        var root = self.url.path
        if !root.hasSuffix("/") { root += "/" }
        let path = url.path.hasSuffix("/") ? url.path : url.path + "/"
        guard path.hasPrefix(root) || root == "/" else { return nil }
        return root.count
    }

    package static func defaultPort(_ url: URL) -> Int {
        url.scheme?.lowercased() == "https" ? 443 : 80
    }
}
