import AsyncHTTPClient
import Base
import Config
import Dispatch
import FoundationEssentials
import Model
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTP client of one source: its TLS trust and timeouts, its proxy (chosen per URL, so a
/// redirect to a host in `no_proxy` goes direct), and redirects followed here, not by the client
/// library, so that credentials go only to the origin they are for — a redirect to another host
/// is followed without them.
package final class HTTPTransport: Sendable {
    /// The source's name, for errors.
    package let name: String
    private let clients: HTTPClients
    /// Which proxy a URL is reached through.
    private let proxy: ProxyRules
    /// Whether the source has a `tls_ca_file` setting (errors name it).
    let offersCAFile: Bool
    /// The headers that prove who we are to a URL, for a request of that method; empty where
    /// they must not go. Awaited, never waited for: a secret still being read (a slow
    /// `password_command`, on the `BlockingPool`) holds up only the requests that need it, not
    /// the thread that sends them (the loader's, the library's).
    private let credentials: Credentials
    /// Seconds the server may be silent while asked for bytes (or take to accept a connection)
    /// before a request fails; never counted while the body's consumer is busy (`StreamedAnswer`).
    private let readTimeout: TimeAmount
    /// URLs whose server answered with a status line the HTTP client refuses (SHOUTcast 1's
    /// `ICY 200 OK`) and that `ICYReader` read: asked with it straight away from then on (a
    /// station's reconnects), not refused by the client first each time.
    private let speaksICY = Locked<Set<String>>([])
    /// Looks at each URL before it is asked, redirects included, and throws for one that must
    /// not be (a link's private address: `PrivateAddresses`); nil: any.
    private let checkTarget: (@Sendable (URL) async throws -> Void)?

    package typealias Credentials = nonisolated(nonsending) @Sendable (URL, HTTPMethod) async throws -> HTTPHeaders

    /// `tlsCAFile`: certificates to trust (a self-signed server); `readTimeout`: seconds
    /// without a byte (or without an answer to a connect) before a request fails; `proxy`: the
    /// config's and the environment's proxies; `offersCAFile`: false for a transport whose
    /// owner has no `tls_ca_file` setting (the open web, a login, ListenBrainz); `checkTarget`
    /// looks at each URL before it is asked (a link's private address).
    package convenience init(name: String, tlsCAFile: String? = nil, readTimeout: Double, proxy: ProxyRules, offersCAFile: Bool = true,
                             credentials: nonisolated(nonsending) @escaping @Sendable (URL) async throws -> HTTPHeaders = { _ in [:] },
                             checkingTargets checkTarget: (@Sendable (URL) async throws -> Void)? = nil) throws {
        try self.init(name: name, tlsCAFile: tlsCAFile, readTimeout: readTimeout, proxy: proxy, offersCAFile: offersCAFile,
                      signing: { url, _ in try await credentials(url) }, checkingTargets: checkTarget)
    }

    /// A transport whose credentials are a signature of each request (S3's SigV4), made anew
    /// for every request and every redirect it follows.
    package init(name: String, tlsCAFile: String? = nil, readTimeout: Double, proxy: ProxyRules, offersCAFile: Bool = true,
                 signing credentials: @escaping Credentials, checkingTargets checkTarget: (@Sendable (URL) async throws -> Void)? = nil) throws {
        self.name = name
        self.credentials = credentials
        self.proxy = proxy
        self.offersCAFile = offersCAFile
        self.checkTarget = checkTarget
        var tls = TLSConfiguration.makeClientConfiguration()
        if let tlsCAFile {
            guard FileManager.default.isReadableFile(atPath: tlsCAFile) else {
                throw LoaderError.configuration("source '\(name)': cannot read tls_ca_file \(tlsCAFile)")
            }
            tls.trustRoots = .file(tlsCAFile)
        }
        let read = TimeAmount.milliseconds(Int64(readTimeout * 1000))
        self.readTimeout = read
        clients = HTTPClients(tls: tls, timeout: read)
    }

    package func shutdown() async {
        await clients.shutdown()
    }

    /// Sends a request with the credentials for its origin and follows up to five redirects.
    package nonisolated(nonsending) func send(_ url: URL, method: HTTPMethod, headers extra: HTTPHeaders = [:],
                                              body: String? = nil) async throws -> HTTPClientResponse {
        try await sendFollowing(url, method: method, headers: extra, body: body).response
    }

    /// `send`, and the URL that answered (the last redirect's): a provider's redirect to a
    /// short-lived download URL (Graph's `/content`) can be used again without the redirect.
    package nonisolated(nonsending) func sendFollowing(_ url: URL, method: HTTPMethod, headers extra: HTTPHeaders = [:],
                                                       body: String? = nil) async throws -> (response: HTTPClientResponse, url: URL) {
        var target = url
        for _ in 0..<6 {
            if let checkTarget { try await checkTarget(target) }
            var headers = try await credentials(target, method)
            headers.add(contentsOf: extra)
            headers.replaceOrAdd(name: "User-Agent", value: "cloudplayerd")
            let response: HTTPClientResponse
            let through: ProxyServer?
            do throws(ProxyURLError) {
                through = try proxy.proxy(for: target)
            } catch {
                throw LoaderError.configuration("the proxy in \(error.problem)")
            }
            if method == .GET, speaksICY.withLock({ $0.contains(target.absoluteString) }) {
                response = try await readICY(target, headers: headers, through: through)
            } else {
                do {
                    let request = try HTTPClient.Request(url: target.absoluteString, method: method, headers: headers, body: body.map { .string($0) })
                    response = try await StreamedAnswer.execute(request, on: clients.client(through: through), readTimeout: readTimeout)
                } catch let error as HTTPParserError where error == .invalidConstant && method == .GET && target.scheme?.lowercased() == "http" {
                    // Not HTTP's status line: a SHOUTcast 1 station's `ICY 200 OK`, read by our own reader.
                    response = try await readICY(target, headers: headers, through: through)
                    speaksICY.withLock { _ = $0.insert(target.absoluteString) }
                } catch {
                    throw failure(error, at: target, through: through)
                }
            }
            if response.status == .proxyAuthenticationRequired, let through {
                throw LoaderError.proxy(ProxyFailure.refused(through, "407 proxy authentication required"))
            }
            // A redirect without a Location is an answer of its own: S3's 301 names the bucket's
            // region in a header and its body, for the caller to sign for.
            guard [301, 302, 303, 307, 308].contains(response.status.code),
                  let location = response.headers.first(name: "Location") else { return (response, target) }
            guard let next = URL(string: location, relativeTo: target)?.absoluteURL,
                  ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                throw LoaderError.badResponse("a redirect without a usable Location")
            }
            target = next
        }
        throw LoaderError.badResponse("too many redirects")
    }

    /// A GET of `url` by `ICYReader`, with the headers the client would have sent, through the
    /// same proxy.
    private nonisolated(nonsending) func readICY(_ url: URL, headers: HTTPHeaders, through: ProxyServer?) async throws -> HTTPClientResponse {
        do {
            var proxy: (server: ProxyServer, authorization: String?)?
            if let through {
                proxy = (through, try await through.basicAuthorization())
            }
            return try await ICYReader.get(url, headers: headers, readTimeout: readTimeout, group: HTTPClient.defaultEventLoopGroup, proxy: proxy)
        } catch {
            throw failure(error, at: url, through: through)
        }
    }

    /// The error for a status that is not an answer.
    package func failure(_ status: HTTPResponseStatus) -> LoaderError {
        LoaderError(status: status, source: name)
    }
}
