import Foundation

/// A server that must be told its port is given one found free, and counts as up only once a
/// socket of its own listens there. Between the pick and the server's bind, anything on the
/// machine may take the port (this suite binds proxies and servers to port 0 all the time, and
/// so do other suites beside it); a rig that only waited for "something accepts" then talked to
/// a stranger — another test's WebDAV server or proxy, whose password differs: a 401. The server
/// that lost the race ends (address in use) and is started again on another port.
extension ServerProcess {
    /// Starts `start(ports)` on `count` ports found free, until its server listens on all of
    /// them itself; `what` names it in the error when no attempt came up.
    public static func onOwnPorts(_ what: String, count: Int = 1,
                                  _ start: ([Int]) throws -> ServerProcess) async throws -> ([Int], ServerProcess) {
        var said = ""
        for _ in 0..<5 {
            let ports = try (0..<count).map { _ in try freePort() }
            let server = try start(ports)
            if try await server.listens(on: ports) { return (ports, server) }
            said = server.errorSoFar()
            await server.stop()
        }
        throw TestSupportError("\(what) found no port of its own: \(said)")
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestSupportError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until a process of this server listens on every one of `ports` (true), or the
    /// server has ended (false: another listener had a port). Throws after two minutes, a
    /// bound only a server that hangs on its way up reaches.
    /// A stranger listening on a port for a second while the server runs on counts as a lost
    /// race too (a server that waits for its port rather than ending).
    public func listens(on ports: [Int]) async throws -> Bool {
        var strangerSeen = 0
        var seen = ""
        for _ in 0..<2400 {
            if serverEnded { return false }
            let processes = serverProcesses()
            let sockets = Set(processes.flatMap(Self.socketInodes))
            let listening = Self.listeningInodes()
            if ports.allSatisfy({ port in listening[port].map { !sockets.isDisjoint(with: $0) } ?? false }) { return true }
            let strangers = ports.filter { port in listening[port].map { sockets.isDisjoint(with: $0) } ?? false }
            strangerSeen = strangers.isEmpty ? 0 : strangerSeen + 1
            if strangerSeen >= 20 { return false }
            seen = "processes \(processes), \(sockets.count) sockets of theirs, ports held by others: \(strangers)"
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("the server did not listen on \(ports) within two minutes (\(seen)): \(errorSoFar())")
    }

    /// The socket inodes listening on TCP ports of this machine (IPv4 and IPv6), by port. Read
    /// as bytes, not Characters: every test waiting for a server reads the tables each 50 ms, and
    /// they list every connection of the suite.
    private static func listeningInodes() -> [Int: Set<Substring>] {
        var found: [Int: Set<Substring>] = [:]
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = ProcFile.read(table)
            for line in text.utf8.split(separator: UInt8(ascii: "\n")).dropFirst() {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
                guard fields.count > 9, fields[3].elementsEqual("0A".utf8), let colon = fields[1].lastIndex(of: UInt8(ascii: ":")),
                      let port = Int(Substring(fields[1][fields[1].index(after: colon)...]), radix: 16) else { continue }
                found[port, default: []].insert(Substring(fields[9]))
            }
        }
        return found
    }

    /// The inodes of the sockets process `pid` holds open.
    public static func socketInodes(of pid: pid_t) -> [Substring] {
        let folder = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.compactMap { entry -> Substring? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(entry)"),
                  target.hasPrefix("socket:[") else { return nil }
            return target.dropFirst("socket:[".count).dropLast()
        }
    }
}
