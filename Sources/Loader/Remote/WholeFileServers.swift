import Base

/// Servers seen to answer a `Range` request with the whole file: a property of the server, which
/// outlives the resource that found it out (a scan then reads no far tail of its files).
final class WholeFileServers: Sendable {
    private let servers = Locked<Set<String>>([])

    func contains(_ server: String) -> Bool {
        servers.withLock { $0.contains(server) }
    }

    func insert(_ server: String) {
        _ = servers.withLock { $0.insert(server) }
    }
}
