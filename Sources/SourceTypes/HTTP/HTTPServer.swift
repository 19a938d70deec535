import Base
import Config
import FoundationEssentials
import Loader
import Model
import NIOHTTP1

/// A server and how we prove who we are to it: the keys `http`, `webdav` and `feed` sources share
/// (`url`, `username` + `password`, `token`, `headers`, `tls_ca_file`). Secrets from files and
/// commands are read on first use, and go only to the server's own origin.
package struct HTTPServer: Sendable, Equatable {
    package static let keys = Set(["url", "username", "headers", "tls_ca_file"])
        .union(Secret.Origin.keys(for: "password")).union(Secret.Origin.keys(for: "token"))

    /// The root: URLs below it are this source's.
    package var url: URL
    package var username: String?
    package var password: Secret.Origin?
    package var token: Secret.Origin?
    /// Extra request headers (`Authorization = "Bearer …"` among them); values are secrets.
    package var headers: [(name: String, value: Secret)]
    /// A PEM file of certificates to trust for this server (a self-signed one, say).
    package var tlsCAFile: String?

    package init(url: URL, username: String? = nil, password: Secret.Origin? = nil, token: Secret.Origin? = nil,
                 headers: [(name: String, value: Secret)] = [], tlsCAFile: String? = nil) {
        self.url = url
        self.username = username
        self.password = password
        self.token = token
        self.headers = headers
        self.tlsCAFile = tlsCAFile
    }

    /// Reads the shared keys of a source's table.
    package static func configure(_ section: ConfigSection) throws(ConfigError) -> HTTPServer {
        if let stray = section.table["path"] {
            throw section.error("path", line: stray.line, "only a local source has a path; this one has a url")
        }
        try section.allow(keys)
        guard let url = try section.httpURL("url") else { throw section.error("url", "missing") }
        let password = try section.secret("password")
        let username = try section.string("username")?.value
        if password != nil && username == nil { throw section.error("username", "a password needs a username") }
        return HTTPServer(url: url, username: username, password: password, token: try section.secret("token"),
                          headers: try section.headers("headers"), tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    /// Its HTTP client, for the source `name`.
    package func transport(name: String, readTimeout: Double, proxy: ProxyRules) throws -> HTTPTransport {
        let credentials = Credentials(server: self)
        return try HTTPTransport(name: name, tlsCAFile: tlsCAFile, readTimeout: readTimeout, proxy: proxy,
                                 credentials: { try await credentials.headers(for: $0) }, renewing: { credentials.renew(after: $0) })
    }

    /// The root as it may be shown: without user, password or query.
    package var shownURL: String {
        TrackLocation(url: url).publicURI
    }

    package static func == (lhs: HTTPServer, rhs: HTTPServer) -> Bool {
        lhs.url == rhs.url && lhs.username == rhs.username && lhs.password == rhs.password && lhs.token == rhs.token
            && lhs.tlsCAFile == rhs.tlsCAFile && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

/// The headers that prove who we are — to every URL of the server's origin (scheme, host, port),
/// whether below the source's root or not, and to no other — resolved once, by one read of the
/// secrets that every request arriving meanwhile waits for; read again when the server refuses
/// them (`renew`), so a password corrected in its file, command or keyring item is taken by the
/// next request, without a restart.
private final class Credentials: Sendable {
    private let server: HTTPServer
    private let origin: URLOrigin?
    private let resolved = Resolved<HTTPHeaders>()

    init(server: HTTPServer) {
        self.server = server
        origin = URLOrigin(server.url)
    }

    /// The server refused `used`: forget them (unless another request has read them anew
    /// already) so the next request reads the secrets again. False when nothing would read
    /// differently: every secret is written in the config.
    func renew(after used: HTTPHeaders) -> Bool {
        let origins = [server.password, server.token].compactMap { $0 }
        guard origins.contains(where: { if case .inline = $0 { false } else { true } }) else { return false }
        resolved.forget { $0 == used }
        return true
    }

    nonisolated(nonsending) func headers(for url: URL) async throws -> HTTPHeaders {
        guard let origin, URLOrigin(url) == origin else { return [:] }
        return try await resolved.value { [server] in
            var headers = HTTPHeaders()
            if let username = server.username {
                let password = try await server.password?.resolve().reveal() ?? ""
                headers.add(name: "Authorization", value: "Basic \(Data("\(username):\(password)".utf8).base64EncodedString())")
            }
            if let token = try await server.token?.resolve() {
                headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token.reveal())")
            }
            for header in server.headers {
                headers.replaceOrAdd(name: header.name, value: header.value.reveal())
            }
            return headers
        }
    }
}
