import AsyncHTTPClient
import Base
import Config
import FoundationEssentials
import Model
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSOCKS

/// Our own reader of a station's answer, for SHOUTcast 1 servers (and old station software)
/// whose status line `ICY 200 OK` the HTTP client refuses: a plain TCP connection, a minimal
/// HTTP/1.0 GET, the head read by `ICYAnswerHandler`, the body streamed as it comes. It returns an
/// `HTTPClientResponse` as the client does — its body our own sequence — so nothing past the
/// transport knows which of the two read the answer. Plain `http://` only: SHOUTcast 1 never
/// spoke TLS. Through a proxy as the HTTP client goes: an HTTP proxy's `CONNECT` tunnel
/// (`ProxyTunnelHandler`) or SOCKS5 with the host name (NIOSOCKS's client).
enum ICYReader {
    /// The caller's headers not sent: a station has no ranges and no versions, and a request of
    /// HTTP/1.0 asks for no compression. (Credentials and `Icy-MetaData` go as they are.)
    static let unsent: Set<String> = ["range", "if-range", "if-none-match", "if-modified-since", "accept-encoding",
                                      "host", "accept", "connection"]

    /// GETs `url` with `headers`; `readTimeout`: for the connect, and for each read asked for
    /// (none while the body's consumer is paused). Cancelling the task closes the connection at
    /// once, whether it is connecting, waiting for the answer, or streaming. `proxy`: the proxy to
    /// go through, with its `Proxy-Authorization` value if it has credentials.
    static func get(_ url: URL, headers: HTTPHeaders, readTimeout: TimeAmount, group: any EventLoopGroup,
                    proxy: (server: ProxyServer, authorization: String?)? = nil) async throws -> HTTPClientResponse {
        guard url.scheme?.lowercased() == "http", let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw LoaderError.unsupportedScheme(url.scheme ?? "")
        }
        let request = ByteBuffer(string: requestHead(url, host: host, headers: headers))
        let connection = Locked<(channel: (any Channel)?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            let answer = try await ClientBootstrap(group: group).connectTimeout(readTimeout)
                .connect(host: proxy?.server.host ?? host, port: proxy?.server.port ?? url.port ?? 80) { (channel: any Channel) -> EventLoopFuture<EventLoopFuture<(ICYHead, PacedBody)>> in
                    // Known before it connects, so that a cancel closes it while it does.
                    if connection.withLock({ $0.channel = channel; return $0.cancelled }) {
                        return channel.eventLoop.makeFailedFuture(CancellationError())
                    }
                    return channel.eventLoop.makeCompletedFuture {
                        let answer = channel.eventLoop.makePromise(of: (ICYHead, PacedBody).self)
                        do {
                            switch proxy?.server.kind {
                            case .http?:
                                try channel.pipeline.syncOperations.addHandler(ProxyTunnelHandler(host: host, port: url.port ?? 80,
                                                                                                  authorization: proxy?.authorization))
                            case .socks5?, .socks5h?:
                                try channel.pipeline.syncOperations.addHandler(SOCKSClientHandler(targetAddress: .domain(host, port: url.port ?? 80)))
                            case nil: break
                            }
                            try channel.pipeline.syncOperations.addHandler(ICYAnswerHandler(request: request, readTimeout: readTimeout, answer: answer))
                        } catch {
                            answer.fail(error)
                            throw error
                        }
                        return answer.futureResult
                    }
                }.get()
            return HTTPClientResponse(version: answer.0.version, status: answer.0.status, headers: answer.0.headers, body: .stream(answer.1))
        } onCancel: {
            connection.withLock { state in
                state.cancelled = true
                return state.channel
            }?.close(promise: nil)
        }
    }

    /// `GET path HTTP/1.0` with `Host`, `Accept` and the caller's headers but `unsent`.
    static func requestHead(_ url: URL, host: String, headers: HTTPHeaders) -> String {
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        // An IPv6 address is bracketed in `Host`, as in the URL.
        var hostHeader = host.contains(":") ? "[\(host)]" : host
        if let port = url.port { hostHeader += ":\(port)" }
        var lines = ["GET \(target) HTTP/1.0", "Host: \(hostHeader)", "Accept: */*"]
        lines += headers.filter { !unsent.contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" }
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }
}
