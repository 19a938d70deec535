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
        let taker = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taker) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(taker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(taker, 8) == 0)

        func httpServer(_ port: Int) throws -> ServerProcess {
            try ServerProcess("http.server", command: #"python3 -m http.server --bind 127.0.0.1 "$1""#, arguments: [String(port)])
        }
        let late = try httpServer(port)
        #expect(try await late.listens(on: [port]) == false, "the taker's port counted as the server's")
        await late.stop()
        let (ports, own) = try await ServerProcess.onOwnPorts("http.server") { try httpServer($0[0]) }
        #expect(ports != [port])
        #expect(try await own.listens(on: ports))
        await own.stop()
    }
}
