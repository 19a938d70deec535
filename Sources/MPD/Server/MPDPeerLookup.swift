import CSocketDiag
import Glibc
import NIOCore

/// Tells an accepted connection's `MPDPeer`. On the unix socket the kernel says who connected
/// (`SO_PEERCRED`, as MPD reads it). Over TCP, a client of this machine has a socket in this
/// machine's table whose own end is the connection's far end: its owner's uid is there (as
/// identd reads it), asked of the kernel in one exact look-up (`CSocketDiag`, what `ss` uses) or,
/// where netlink is refused, read from `/proc/net/tcp` (`MPDProcTCPTable`). A client whose socket
/// is not in the table is another machine's. MPD knows a peer's uid only on its unix socket and
/// takes every TCP client as a stranger; here the user's own `mpc` over `127.0.0.1:6600` is the
/// owner's, and another user's is not.
///
/// Each look-up is a syscall or two that the kernel answers at once (no disk, no network): it
/// runs where the connection is served, before the greeting.
enum MPDPeerLookup {
    /// The daemon's user.
    static let ownUID = geteuid()

    static func peer(of channel: any Channel) async -> MPDPeer {
        switch channel.remoteAddress {
        case .unixDomainSocket?:
            guard let uid = await credentials(of: channel) else { return .unknown }
            return uid == ownUID ? .owner : .user(uid: uid)
        case let remote?:
            guard let local = channel.localAddress, let far = Endpoint(remote), let near = Endpoint(local) else { return .unknown }
            switch tcpOwner(far, connectedTo: near) {
            case .found(let uid): return uid == ownUID ? .owner : .user(uid: uid)
            case .absent: return near.isLoopback ? .unknown : .remote(address: remote.ipAddress ?? "?")
            case .unreadable: return near.isLoopback ? .unknown : .remote(address: remote.ipAddress ?? "?")
            }
        case nil:
            return .unknown
        }
    }

    /// The uid of the process at the other end of a unix socket, as the kernel recorded it at
    /// `connect` (`struct ucred`).
    private static func credentials(of channel: any Channel) async -> UInt32? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET), name: NIOBSDSocket.Option(rawValue: SO_PEERCRED))
        return try? await future.get().uid
    }

    /// `struct ucred` of <sys/socket.h>, which Swift's Glibc shows only with _GNU_SOURCE.
    private struct PeerCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// What the kernel's table says of a socket.
    enum TableAnswer: Equatable {
        case found(UInt32)
        /// No such socket on this machine.
        case absent
        /// Neither netlink nor `/proc/net/tcp` could be read.
        case unreadable
    }

    /// The owner of this machine's socket whose own end is `socket` and whose peer is `peer`.
    static func tcpOwner(_ socket: Endpoint, connectedTo peer: Endpoint) -> TableAnswer {
        var uid: UInt32 = 0
        let status = socket.bytes.withUnsafeBufferPointer { own in
            peer.bytes.withUnsafeBufferPointer { far in
                csocketdiag_tcp_owner(socket.family, own.baseAddress, UInt32(socket.port), far.baseAddress, UInt32(peer.port), &uid)
            }
        }
        if status == 0 { return .found(uid) }
        if status == -ENOENT { return .absent }
        return MPDProcTCPTable.owner(of: socket, connectedTo: peer)
    }

    /// The owner of a listening TCP socket on `port` (of the family of `address`), if any.
    static func listenerOwner(port: Int, family: Int32) -> UInt32? {
        var uid: UInt32 = 0
        let status = csocketdiag_tcp_listener_owner(family, UInt32(port), &uid)
        if status == 0 { return uid }
        if status == -ENOENT { return nil }
        return MPDProcTCPTable.listenerOwner(port: port, family: family)
    }

    /// One end of a TCP connection: its family, address bytes (network order) and port. An
    /// IPv4 address mapped into IPv6 (a dual-stack listener's view of an IPv4 client) is taken
    /// as the IPv4 address it is, as the client's own socket has it.
    struct Endpoint: Equatable {
        let family: Int32
        let bytes: [UInt8]
        let port: Int

        init(family: Int32, bytes: [UInt8], port: Int) {
            self.family = family
            self.bytes = bytes
            self.port = port
        }

        init?(_ address: SocketAddress) {
            guard let port = address.port else { return nil }
            switch address {
            case .v4(let v4):
                self.init(family: AF_INET, bytes: withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }, port: port)
            case .v6(let v6):
                let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
                if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                    self.init(family: AF_INET, bytes: Array(bytes[12..<16]), port: port)
                } else {
                    self.init(family: AF_INET6, bytes: bytes, port: port)
                }
            case .unixDomainSocket:
                return nil
            }
        }

        /// 127.0.0.0/8 or ::1.
        var isLoopback: Bool {
            family == AF_INET ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
        }
    }
}
