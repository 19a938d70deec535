import AsyncHTTPClient
import Base
import Config
import Foundation
import Model
import NIOCore
import NIOHTTP1
import NIOSSL

/// A server reached over HTTP(S): a `[[source]]` of type `http`, or the open web for a URL no
/// source covers. It knows who we are to that server and nobody else.
///
/// Redirects are followed here, not by the client library, so that credentials go only to the
/// origin the user configured: a redirect to another host is followed without them.
package class HTTPSource: MediaSource, @unchecked Sendable {
    package let name: String
    /// The configured root; nil for the open web.
    package let configuration: SourceConfiguration?
    let client: HTTPClient
    private let resolved = Locked<HTTPHeaders?>(nil)
    private let isOpen = Locked(true)
    /// Servers (scheme://host:port) that answered a `Range` request with the whole file: a server
    /// property, which outlives the resource that found it out.
    private let wholeFileServers = Locked<Set<String>>([])

    package required init(configuration: SourceConfiguration?, readTimeout: Double) throws {
        self.configuration = configuration
        name = configuration?.name ?? "web"
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration?.tlsCAFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw LoaderError.configuration("source '\(name)': cannot read tls_ca_file \(caFile)")
            }
            tls.trustRoots = .file(caFile)
        }
        let read = TimeAmount.milliseconds(Int64(readTimeout * 1000))
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                            configuration: HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                                    timeout: .init(connect: read, read: read)))
    }

    package func shutdown() async {
        guard isOpen.withLock({ open in defer { open = false }; return open }) else { return }
        try? await client.shutdown()
    }

    deinit {
        // A source dropped without `shutdown()` (a loader that was never shut down) still closes
        // its connections; the callback keeps the client alive until they are closed.
        guard isOpen.withLock({ $0 }) else { return }
        let client = client
        client.shutdown(queue: .global()) { _ in withExtendedLifetime(client) {} }
    }

    /// Whether the server of `url` has been seen to ignore `Range`.
    func ignoresRanges(_ url: URL) -> Bool {
        wholeFileServers.withLock { $0.contains(Self.server(of: url)) }
    }

    func sawRangesIgnored(_ url: URL) {
        _ = wholeFileServers.withLock { $0.insert(Self.server(of: url)) }
    }

    private static func server(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? SourceConfiguration.defaultPort(url))"
    }

    // MARK: MediaSource

    package func open(_ url: URL, with loader: isolated LoaderActor, waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        NetworkByteSource(resource: try await loader.resource(for: url, from: self), waiting: waiting)
    }

    package nonisolated(nonsending) func describe(_ url: URL) async throws -> ResourceInfo {
        let response = try await send(url, method: .HEAD)
        guard response.status == .ok else { throw failure(response.status) }
        guard let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
            throw LoaderError.badResponse("the server did not say how long the file is")
        }
        return ResourceInfo(length: length, validator: ResourceInfo.validator(in: response.headers),
                            contentType: response.headers.first(name: "Content-Type"),
                            acceptsRanges: response.headers.first(name: "Accept-Ranges") == "bytes")
    }

    /// A small document whole (not through the sparse cache: it changes, and is read once), or
    /// nil when it still has `validator` (304). Larger than `limit` is an error.
    nonisolated(nonsending) func document(_ url: URL, limit: Int, ifNoneMatch validator: String?) async throws -> FetchedDocument? {
        var headers = HTTPHeaders()
        if let validator {
            headers.add(name: validator.hasPrefix("\"") || validator.hasPrefix("W/") ? "If-None-Match" : "If-Modified-Since", value: validator)
        }
        let response = try await send(url, method: .GET, headers: headers)
        if response.status == .notModified { return nil }
        guard response.status == .ok else { throw failure(response.status) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: limit)
        } catch {
            throw LoaderError.badResponse("a document larger than \(limit >> 20) MiB, or broken off")
        }
        let etag = response.headers.first(name: "ETag") ?? response.headers.first(name: "Last-Modified")
        return FetchedDocument(bytes: Array(body.readableBytesView), validator: etag)
    }

    // MARK: Requests

    /// Sends a request with this source's credentials and follows up to five redirects.
    nonisolated(nonsending) func send(_ url: URL, method: HTTPMethod, headers extra: HTTPHeaders = [:], body: String? = nil) async throws -> HTTPClientResponse {
        var target = url
        for _ in 0..<6 {
            var request = HTTPClientRequest(url: target.absoluteString)
            request.method = method
            request.headers = try credentials(for: target)
            request.headers.add(contentsOf: extra)
            request.headers.replaceOrAdd(name: "User-Agent", value: "cloudplayerd")
            if let body { request.body = .bytes(ByteBuffer(string: body)) }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: .seconds(3600))
            } catch {
                throw Self.loaderError(error)
            }
            guard [301, 302, 303, 307, 308].contains(response.status.code) else { return response }
            guard let location = response.headers.first(name: "Location"), let next = URL(string: location, relativeTo: target)?.absoluteURL,
                  ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                throw LoaderError.badResponse("a redirect without a usable Location")
            }
            target = next
        }
        throw LoaderError.badResponse("too many redirects")
    }

    /// The headers that prove who we are — only for the configured origin. Secrets from files and
    /// commands are read once, on first use.
    func credentials(for url: URL) throws -> HTTPHeaders {
        var headers = HTTPHeaders()
        guard let configuration, Self.sameOrigin(url, configuration.url) else { return headers }
        if let known = resolved.withLock({ $0 }) { return known }
        if let username = configuration.username {
            let password = try configuration.password?.resolve().reveal() ?? ""
            let token = Data("\(username):\(password)".utf8).base64EncodedString()
            headers.add(name: "Authorization", value: "Basic \(token)")
        }
        if let token = try configuration.token?.resolve() {
            headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token.reveal())")
        }
        for header in configuration.headers {
            headers.replaceOrAdd(name: header.name, value: header.value.reveal())
        }
        resolved.withLock { $0 = headers }
        return headers
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? SourceConfiguration.defaultPort(a)) == (b.port ?? SourceConfiguration.defaultPort(b))
    }

    /// The error for a status that is not an answer.
    func failure(_ status: HTTPResponseStatus) -> LoaderError {
        switch status.code {
        case 401, 403: .refused(source: name, status: Int(status.code))
        case 404, 410: .notFound
        default: .http(status: Int(status.code))
        }
    }

    /// A transport error as a loader error: TLS failures are final (retrying cannot make a
    /// certificate trusted), the rest is the network's bad moment.
    static func loaderError(_ error: any Error) -> LoaderError {
        let text = String(describing: error)
        if error is NIOSSLError || error is BoringSSLError || text.contains("SSL") || text.contains("certificate") {
            if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") {
                return .tls("the server's certificate is not trusted (for a self-signed server, set tls_ca_file)")
            }
            return .tls("the secure connection failed")
        }
        return .network(describe(error))
    }

    /// A transport error in words, without URLs (they may carry tokens in their query).
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return "the server stopped sending"
            case .connectTimeout: return "the server did not answer"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: break
            }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return String(describing: error).split(separator: "(").first.map { String($0) } ?? "network error"
    }
}
