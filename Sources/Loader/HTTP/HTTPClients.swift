import AsyncHTTPClient
import Base
import Config
import Dispatch
import Model
import NIOCore
import NIOSSL

/// The HTTP clients of one transport, one per proxy it goes through (the HTTP client has one
/// proxy per client): the direct one and each proxy's, made when a request first needs it — a
/// proxy's password, from a file or a command, read then, on the `BlockingPool` — and kept
/// until the transport shuts down.
final class HTTPClients: Sendable {
    private let tls: TLSConfiguration
    /// For connecting.
    private let timeout: TimeAmount
    private let state = Locked<(clients: [ProxyServer?: HTTPClient], open: Bool)>(([:], true))

    init(tls: TLSConfiguration, timeout: TimeAmount) {
        self.tls = tls
        self.timeout = timeout
    }

    /// The client that sends through `proxy` (nil: straight to the server).
    func client(through proxy: ProxyServer?) async throws -> HTTPClient {
        if let known = state.withLock({ $0.clients[proxy] }) { return known }
        // No read timeout of the client's: it counts while the client holds reads for a busy
        // consumer too. `StreamedAnswer` times only the server's silence.
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: timeout, read: nil))
        // A refused connection is an answer at once: the client's own retries would hide it for
        // the whole connect timeout. The loader retries what is worth retrying itself.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let proxy {
            switch proxy.kind {
            case .http:
                configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: try await proxy.authorization())
            case .socks5, .socks5h:
                configuration.proxy = .socksServer(host: proxy.host, port: proxy.port)
            }
        }
        let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let (kept, open) = state.withLock { state -> (HTTPClient?, Bool) in
            guard state.open else { return (nil, false) }
            if let other = state.clients[proxy] { return (other, true) }
            state.clients[proxy] = made
            return (made, true)
        }
        if kept !== made { try? await made.shutdown() }  // another request made one first, or the transport closed
        guard open, let kept else { throw LoaderError.cancelled }
        return kept
    }

    func shutdown() async {
        for client in closeAll() { try? await client.shutdown() }
    }

    private func closeAll() -> [HTTPClient] {
        state.withLock { state in
            defer { state = ([:], false) }
            return state.open ? Array(state.clients.values) : []
        }
    }

    deinit {
        // A transport dropped without `shutdown()` (a loader that was never shut down) still
        // closes its connections; the callback keeps each client alive until they are closed.
        for client in closeAll() {
            client.shutdown(queue: .global()) { _ in withExtendedLifetime(client) {} }
        }
    }
}
