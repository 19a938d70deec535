import Foundation
import Testing
import TestSupport

/// The test rigs' servers on ports of their own (`ServerProcess.onOwnPorts`): a port found free
/// may be taken before the server binds it, and then the rig must not take the taker for its
/// server (a WebDAV rig did, and its requests were answered 401 by another test's server).
struct OwnPortTests {
    @Test("a server whose port another listener took does not count as listening there; on a free port it does")
    func takenPort() async throws {
        // The taker: a listener of this process on a port found free.
        let port = try ServerProcess.freePort()
        let taker = try #require(Self.listener(on: port))
        defer { close(taker) }

        let late = try Self.httpServer(port)
        #expect(try await late.listens(on: [port]) == false, "the taker's port counted as the server's")
        await late.stop()
        let (ports, own) = try await ServerProcess.onOwnPorts("http.server") { try Self.httpServer($0[0]) }
        #expect(ports != [port])
        #expect(try await own.listens(on: ports))
        await own.stop()
    }

    /// /proc/net/tcp is made as it is read and says its size is 0; read as an ordinary file it
    /// ended after its first 4 KiB, and on a busy machine every rig waited two minutes in vain.
    @Test("among 300 other listeners (a socket table many pages long) a server's own listener is seen")
    func manySockets() async throws {
        let others = (0..<300).compactMap { _ in Self.listener(on: 0) }
        defer { others.forEach { close($0) } }
        #expect(others.count == 300)
        let (ports, server) = try await ServerProcess.onOwnPorts("http.server") { try Self.httpServer($0[0]) }
        #expect(try await server.listens(on: ports))
        await server.stop()
    }

    private static func httpServer(_ port: Int) throws -> ServerProcess {
        try ServerProcess("http.server", command: #"python3 -m http.server --bind 127.0.0.1 "$1""#, arguments: [String(port)])
    }

    /// A socket of this process listening on 127.0.0.1:`port` (0: a port the kernel picks).
    private static func listener(on port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
