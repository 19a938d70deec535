import FoundationEssentials
import Glibc
import Model

/// The redirect target of a browser login: one listening socket on 127.0.0.1 (never another
/// address). Any local process can connect to it, so it trusts none: it takes only a request for
/// `/` whose `state` is the login's and that brings a `code` or an `error`; every other request
/// (a favicon, a forged or stale `state`) is answered with a short page and ignored, and the login
/// goes on waiting. It waits on a person, for minutes, without a thread: the sockets never block
/// and are looked at every 50 ms, each connection on its own (`LoopbackClient`), so one that
/// connects and sends nothing holds up no other and is dropped after `clientTimeout`. A cancelled
/// wait ends at once; the whole wait ends after `loginTimeout`.
package final class LoopbackListener: Sendable {
    package let port: Int
    private let socket: Int32

    /// `port` 0: any free port.
    package init(port: Int = 0) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoaderError.network("cannot open a socket for the login") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
            close(fd)
            throw LoaderError.network("cannot listen on 127.0.0.1:\(port) for the login: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }

    /// `http://127.0.0.1:PORT/`.
    package var redirectURI: String { "http://127.0.0.1:\(port)/" }

    /// Seconds a connection has to send its request before it is dropped.
    static let clientTimeout: Double = 10
    /// Seconds the login waits for the browser in all.
    static let loginTimeout: Double = 15 * 60
    /// Connections read at once; beyond, the oldest is dropped (a process that opens many).
    static let clientLimit = 32

    /// The query of the first request for `/` with a `code` or an `error` — and, when `state` is
    /// given, that `state`. Throws after `timeout` seconds without one.
    package func awaitRedirect(state: String? = nil, timeout: Double = loginTimeout) async throws -> [String: String] {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var clients: [LoopbackClient] = []
        defer { clients.forEach { $0.close() } }
        while true {
            try Task.checkCancellation()
            while let fd = try acceptOne() {
                if clients.count >= Self.clientLimit { clients.removeFirst().close() }
                clients.append(LoopbackClient(fd: fd, deadline: ContinuousClock.now + .milliseconds(Int64(Self.clientTimeout * 1000))))
            }
            var index = 0
            while index < clients.count {
                switch clients[index].read() {
                case .waiting where ContinuousClock.now < clients[index].deadline: index += 1
                case .waiting, .gone: clients.remove(at: index).close()
                case .request(let path, let query):
                    let client = clients.remove(at: index)
                    let wanted = path == "/" && (query["code"] != nil || query["error"] != nil)
                        && (state == nil || query["state"] == state)
                    client.answer(wanted ? "cloudplayerd: login received. You can close this window." : "cloudplayerd is waiting for the login.")
                    client.close()
                    if wanted { return query }  // the others are closed on the way out
                }
            }
            guard ContinuousClock.now < deadline else {
                throw LoaderError.network("no browser came back to the login within \(timeout >= 60 ? "\(Int(timeout / 60)) minutes" : "\(Int(timeout)) s"); log in again")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A connection waiting to be taken, made non-blocking; nil when none is waiting.
    private func acceptOne() throws -> Int32? {
        let client = Glibc.accept(socket, nil, nil)
        if client >= 0 {
            guard fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK) == 0 else {
                close(client)
                return nil
            }
            return client
        }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: return nil
        default: throw LoaderError.network("the login listener failed: \(String(cString: strerror(errno)))")
        }
    }
}
