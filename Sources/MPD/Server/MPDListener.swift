import Base
import FoundationEssentials
import Glibc
import NIOCore
import NIOPosix

/// Binds an `MPDAddress`: a TCP socket, or a unix socket (its folder made 0700 if missing, a
/// stale socket file replaced, the socket 0600); each client's channel reads lines of at most
/// `lineLimit` and writes with watermarks, so a client that does not read is held up (not
/// buffered for).
enum MPDListener {
    /// Bytes waiting for one client beyond which writing to it waits.
    static let writeWatermarks = ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1024, high: 256 * 1024)

    static func bind(_ address: MPDAddress, lineLimit: Int) async throws -> NIOAsyncChannel<MPDAcceptedClient, Never> {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.writeBufferWaterMark, value: writeWatermarks)
            .childChannelOption(.allowRemoteHalfClosure, value: false)
        let waiting = MPDWaitingClients()
        let initializer: @Sendable (any Channel) -> EventLoopFuture<MPDAcceptedClient> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(MPDLineDecoder(limit: lineLimit)))
                let client = try NIOAsyncChannel<MPDLine, ByteBuffer>(wrappingChannelSynchronously: channel)
                // A client accepted as its listener closes (a reload dropping the address) is
                // dropped by NIO before its channel is active, and NIO traps when the last hold on
                // a writer never finished goes (seen: the daemon crashed in `channelActive`). Held
                // here until the channel closes, then finished — a no-op for a client served to
                // its end, whose connection finished it.
                channel.closeFuture.whenComplete { _ in
                    Task { try? await client.executeThenClose { _, _ in } }
                }
                return waiting.add(client)
            }
        }
        let listener: NIOAsyncChannel<MPDAcceptedClient, Never>
        switch address {
        case .tcp(let host, let port):
            listener = try await bootstrap.bind(host: host, port: port, childChannelInitializer: initializer)
        case .unix(let path):
            try await BlockingPool.shared.run { try prepareSocket(at: path) }
            listener = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true,
                                                childChannelInitializer: initializer)
            _ = chmod(path, 0o600)
        }
        listener.channel.closeFuture.whenComplete { _ in waiting.closeWaiting() }
        return listener
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

/// Why a unix socket was not listened on.
enum MPDListenerError: Error, CustomStringConvertible {
    case socketInUse(String)

    var description: String {
        switch self {
        case .socketInUse(let path): "another server answers on \(path)"
        }
    }
}
