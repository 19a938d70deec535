import Base
import FoundationEssentials
import Glibc
import NIOCore
import NIOPosix

/// Binds an `MPDAddress`: a TCP socket, or a unix socket (its folder made 0700 if missing, a
/// stale socket file replaced, the socket 0600); each client's channel reads lines within its
/// `MPDClientTerms`, closes it after its silence (`MPDSilenceHandler`) and writes with watermarks
/// from the limits as they are when it connects, so a client that does not read is held up (not
/// buffered for).
enum MPDListener {
    /// Listens where `address` says: a unix socket, or every address its host resolves to
    /// (`localhost` is 127.0.0.1 and ::1) — all of them or, if one cannot be bound, none.
    static func bind(_ address: MPDAddress, limits: @escaping @Sendable () -> MPDLimits) async throws -> [NIOAsyncChannel<MPDAcceptedClient, Never>] {
        switch address {
        case .tcp(let host, let port):
            let resolved = try await BlockingPool.shared.run { try addresses(of: host, port: port) }
            var bound: [NIOAsyncChannel<MPDAcceptedClient, Never>] = []
            do {
                for socketAddress in resolved {
                    do {
                        bound.append(try await listen(limits: limits) { try await $0.bind(to: socketAddress, childChannelInitializer: $1) })
                    } catch let error as IOError where resolved.count > 1 && [EADDRNOTAVAIL, EAFNOSUPPORT].contains(error.errnoCode) {
                        continue  // a family this machine has no address of (::1 where IPv6 is off)
                    }
                }
            } catch {
                for listener in bound { listener.channel.close(promise: nil) }
                throw error
            }
            guard !bound.isEmpty else { throw MPDListenerError.unresolved(host, "none of its addresses is this machine's") }
            return bound
        case .unix(let path):
            try await BlockingPool.shared.run { try prepareSocket(at: path) }
            let listener = try await listen(limits: limits) {
                try await $0.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true, childChannelInitializer: $1)
            }
            _ = chmod(path, 0o600)
            return [listener]
        }
    }

    typealias Initializer = @Sendable (any Channel) -> EventLoopFuture<MPDAcceptedClient>

    /// One listening socket, bound by `bind` with the clients' channel initializer.
    private static func listen(limits: @escaping @Sendable () -> MPDLimits,
                               _ bind: (ServerBootstrap, @escaping Initializer) async throws -> NIOAsyncChannel<MPDAcceptedClient, Never>) async throws
        -> NIOAsyncChannel<MPDAcceptedClient, Never> {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.allowRemoteHalfClosure, value: false)
        let waiting = MPDWaitingClients()
        let initializer: Initializer = { channel in
            channel.eventLoop.makeCompletedFuture {
                let limits = limits()
                // Let in to nothing until the server has told who connected.
                let terms = MPDClientTerms(lineLimit: MPDLimits.entry.lineLength, timeout: MPDLimits.entry.timeout)
                let high = limits.writeHighWatermark
                try channel.syncOptions?.setOption(.writeBufferWaterMark, value: .init(low: high / 8, high: high))
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(MPDInputDecoder(terms: terms)))
                try channel.pipeline.syncOperations.addHandler(MPDSilenceHandler(terms: terms))
                let client = try NIOAsyncChannel<MPDInput, ByteBuffer>(wrappingChannelSynchronously: channel)
                // A client accepted as its listener closes (a reload dropping the address) is
                // dropped by NIO before its channel is active, and NIO traps when the last hold on
                // a writer never finished goes (seen: the daemon crashed in `channelActive`). Held
                // here until the channel closes, then finished — a no-op for a client served to
                // its end, whose connection finished it.
                channel.closeFuture.whenComplete { _ in
                    Task { try? await client.executeThenClose { _, _ in } }
                }
                return waiting.add(client, terms: terms)
            }
        }
        let listener = try await bind(bootstrap, initializer)
        listener.channel.closeFuture.whenComplete { _ in waiting.closeWaiting() }
        return listener
    }

    /// The addresses `host` stands for (a literal stands for itself), each once, in the
    /// resolver's order.
    private static func addresses(of host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else { throw MPDListenerError.unresolved(host, String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let pointer = info.ai_addr else { continue }
            let address: SocketAddress
            switch Int32(pointer.pointee.sa_family) {
            case AF_INET: address = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            case AF_INET6: address = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            default: continue
            }
            if !found.contains(address) { found.append(address) }
        }
        guard !found.isEmpty else { throw MPDListenerError.unresolved(host, "no address") }
        return found
    }

    /// The socket's folder, made (0700: only its user reaches the socket) if it is not there; a
    /// socket file something still answers on is not taken over (another daemon's).
    private static func prepareSocket(at path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        if stat(folder, &info) != 0 {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        if stat(path, &info) == 0, answers(path) { throw MPDListenerError.socketInUse(path) }
    }

    /// Whether a server accepts connections on the unix socket at `path`.
    private static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Bool in
            let bytes = Array(path.utf8)
            guard bytes.count < raw.count else { return false }
            raw.copyBytes(from: bytes)
            return true
        }
        guard fits else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}

/// Why an address was not listened on.
enum MPDListenerError: Error, CustomStringConvertible {
    case socketInUse(String)
    case unresolved(String, String)

    var description: String {
        switch self {
        case .socketInUse(let path): "another server answers on \(path)"
        case .unresolved(let host, let reason): "cannot resolve \(host): \(reason)"
        }
    }
}
