import Base
import Config
import FoundationEssentials
import Model
import NIOHTTP1

/// The HTTP client of one source: its TLS trust and timeouts, its proxy (chosen per URL, so a
/// redirect to a host in `no_proxy` goes direct), and redirects followed here, not by libcurl,
/// so that credentials go only to the origin they are for — a redirect to another host is
/// followed without them. Its requests run on an engine of its own (`CurlEngine`), which keeps
/// its connections.
package final class HTTPTransport: Sendable {
    /// The source's name, for errors.
    package let name: String
    private let engine: CurlEngine
    /// Certificates to trust (a self-signed server).
    private let tlsCAFile: String?
    /// Which proxy a URL is reached through.
    private let proxy: ProxyRules
    /// Each proxy's password, read once (a file, a command, the keyring, on the `BlockingPool`)
    /// for all the transport's requests.
    private let proxyPasswords = Locked<[ProxyServer: Resolved<String>]>([:])
    /// Whether the source has a `tls_ca_file` setting (errors name it).
    let offersCAFile: Bool
    /// The headers that prove who we are to a URL, for a request of that method; empty where
    /// they must not go. Awaited, never waited for: a secret still being read (a slow
    /// `password_command`, on the `BlockingPool`) holds up only the requests that need it, not
    /// the thread that sends them (the loader's, the library's).
    private let credentials: Credentials
    /// Told the credentials a request carried when the server answered 401: true when they may
    /// read differently now (a password file or command, a keyring item the user corrected),
    /// and the request is sent once more with what they read; nil: they cannot.
    private let renewing: (@Sendable (HTTPHeaders) -> Bool)?
    /// Milliseconds the server may be silent while asked for bytes (or take to accept a
    /// connection) before a request fails; never counted while the body's consumer is busy
    /// (`CurlTransfer`).
    private let readTimeout: Int
    /// Looks at each URL before it is asked, redirects included, and throws for one that must
    /// not be (a link's private address: `PrivateAddresses`); true when the address the
    /// connection reaches must pass the same check (straight to the server); nil: any.
    private let checkTarget: (@Sendable (URL) async throws -> Bool)?

    package typealias Credentials = nonisolated(nonsending) @Sendable (URL, HTTPMethod) async throws -> HTTPHeaders

    /// `tlsCAFile`: certificates to trust (a self-signed server); `readTimeout`: seconds
    /// without a byte (or without an answer to a connect) before a request fails; `proxy`: the
    /// config's and the environment's proxies; `offersCAFile`: false for a transport whose
    /// owner has no `tls_ca_file` setting (the open web, a login, ListenBrainz); `checkTarget`
    /// looks at each URL before it is asked (a link's private address), and says whether the
    /// address the connection reaches is to be checked as well.
    package convenience init(name: String, tlsCAFile: String? = nil, readTimeout: Double, proxy: ProxyRules, offersCAFile: Bool = true,
                             credentials: nonisolated(nonsending) @escaping @Sendable (URL) async throws -> HTTPHeaders = { _ in [:] },
                             renewing: (@Sendable (HTTPHeaders) -> Bool)? = nil,
                             checkingTargets checkTarget: (@Sendable (URL) async throws -> Bool)? = nil) throws {
        try self.init(name: name, tlsCAFile: tlsCAFile, readTimeout: readTimeout, proxy: proxy, offersCAFile: offersCAFile,
                      signing: { url, _ in try await credentials(url) }, renewing: renewing, checkingTargets: checkTarget)
    }

    /// A transport whose credentials are a signature of each request (S3's SigV4), made anew
    /// for every request and every redirect it follows.
    package init(name: String, tlsCAFile: String? = nil, readTimeout: Double, proxy: ProxyRules, offersCAFile: Bool = true,
                 signing credentials: @escaping Credentials, renewing: (@Sendable (HTTPHeaders) -> Bool)? = nil,
                 checkingTargets checkTarget: (@Sendable (URL) async throws -> Bool)? = nil) throws {
        self.name = name
        self.credentials = credentials
        self.renewing = renewing
        self.proxy = proxy
        self.offersCAFile = offersCAFile
        self.checkTarget = checkTarget
        if let tlsCAFile, !FileManager.default.isReadableFile(atPath: tlsCAFile) {
            throw LoaderError.configuration("source '\(name)': cannot read tls_ca_file \(tlsCAFile)")
        }
        self.tlsCAFile = tlsCAFile
        self.readTimeout = Int(readTimeout * 1000)
        engine = CurlEngine(name: name)
    }

    /// Ends the requests still running and closes the connections.
    package func shutdown() async {
        engine.shutdown()
    }

    deinit {
        // A transport dropped without `shutdown()` (a loader that was never shut down) still
        // ends its engine's thread and closes its connections.
        engine.shutdown()
    }

    /// Sends a request with the credentials for its origin and follows up to five redirects.
    package nonisolated(nonsending) func send(_ url: URL, method: HTTPMethod, headers extra: HTTPHeaders = [:],
                                              body: String? = nil) async throws -> HTTPAnswer {
        try await sendFollowing(url, method: method, headers: extra, body: body).response
    }

    /// `send`, and the URL that answered (the last redirect's): a provider's redirect to a
    /// short-lived download URL (Graph's `/content`) can be used again without the redirect.
    package nonisolated(nonsending) func sendFollowing(_ url: URL, method: HTTPMethod, headers extra: HTTPHeaders = [:],
                                                       body: String? = nil) async throws -> (response: HTTPAnswer, url: URL) {
        var target = url
        var renewed = false
        for _ in 0..<6 {
            let publicOnly = try await checkTarget?(target) ?? false
            let proof = try await credentials(target, method)
            var headers = proof
            headers.add(contentsOf: extra)
            headers.replaceOrAdd(name: "User-Agent", value: "cloudplayerd")
            let through: ProxyServer?
            do throws(ProxyURLError) {
                through = try proxy.proxy(for: target)
            } catch {
                throw LoaderError.configuration("the proxy in \(error.problem)")
            }
            var response: HTTPAnswer
            do {
                var request = try await request(target, method: method, headers: headers, body: body, through: through)
                request.publicOnly = publicOnly && through == nil
                response = try await engine.send(request)
            } catch {
                throw failure(error, at: target, through: through)
            }
            response.url = target
            if let through, let refusal = ProxyFailure.forwardedRefusal(response, proxy: through, target: target) { throw LoaderError.proxy(refusal) }
            // Refused: the password may have been corrected since it was read. Read once more
            // and ask again; refused again, the answer stands.
            if response.status.code == 401, !renewed, !proof.isEmpty, renewing?(proof) == true {
                renewed = true
                continue
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

    /// The request libcurl is asked: through `proxy` (with its credentials, read by the first
    /// request that needs them), trusting `tlsCAFile`.
    private nonisolated(nonsending) func request(_ url: URL, method: HTTPMethod, headers: HTTPHeaders, body: String?,
                                                 through proxy: ProxyServer?) async throws -> CurlRequest {
        var request = CurlRequest(url: url, method: method, headers: headers, body: body, caFile: tlsCAFile,
                                  timeoutMilliseconds: readTimeout)
        if let proxy {
            // A SOCKS5 proxy is given the host name, whichever of the two schemes names it.
            let scheme = proxy.kind == .http ? "http" : "socks5h"
            request.proxy = "\(scheme)://\(proxy.host.contains(":") ? "[\(proxy.host)]" : proxy.host):\(proxy.port)"
            if let username = proxy.username {
                request.proxyUser = username
                let password = proxyPasswords.withLock { known in
                    if let password = known[proxy] { return password }
                    let password = Resolved<String>()
                    known[proxy] = password
                    return password
                }
                request.proxyPassword = try await password.value { try await proxy.password?.resolve().reveal() ?? "" }
            }
        }
        return request
    }

    /// The error for a status that is not an answer.
    package func failure(_ status: HTTPResponseStatus) -> LoaderError {
        LoaderError(status: status, source: name)
    }
}
