import Glibc
import NIOCore

/// Listening on an address: every address its name stands for, each checked by what was bound
/// — one other machines can reach is not served without a password, whatever its name says —
/// and a port another program holds said once, with who holds it.
extension MPDServer {
    /// Serves `address` while its `turn` lasts: until a reload drops it, or the server stops.
    func serve(_ address: MPDAddress, turn: UInt64) async {
        defer { channels.withLock { if $0.serving[address] == turn { $0.serving[address] = nil } } }
        let listeners: [NIOAsyncChannel<MPDAcceptedClient, Never>]
        do {
            listeners = try await MPDListener.bind(address) { [context] in context.settings.limits }
        } catch {
            logger.warning("MPD: cannot listen on \(address): \(error); \(taken(address, by: error) ?? "serving without it")")
            return
        }
        if context.settings.password == nil, let reachable = listeners.first(where: { Self.isReachable($0.channel) }) {
            logger.error("MPD: \(address) is \(reachable.channel.localAddress.flatMap(Self.shown) ?? "?"), which other machines can reach: set [mpd] password to listen there; not listening on it")
            for listener in listeners { listener.channel.close(promise: nil) }
            return
        }
        // Dropped by a reload while it was being bound: not served.
        let current = channels.withLock { open in
            guard open.serving[address] == turn else { return false }
            open.listeners[address] = listeners.map(\.channel)
            return true
        }
        guard current, listeners.allSatisfy({ keep($0.channel) }) else {
            for listener in listeners { listener.channel.close(promise: nil) }
            return
        }
        let bound = listeners.compactMap { $0.channel.localAddress.flatMap(Self.shown) }
        // A name is said with what it was bound as.
        let at = bound == [address.description] || bound.isEmpty ? "" : " (\(bound.joined(separator: ", ")))"
        logger.info("MPD: listening on \(address)\(at)")
        await withDiscardingTaskGroup { group in
            for listener in listeners {
                group.addTask { await self.accept(on: listener, of: address) }
            }
        }
        channels.withLock { open in
            if open.listeners[address]?.first === listeners.first?.channel { open.listeners[address] = nil }
        }
    }

    /// Serves the clients `listener` accepts until it closes.
    private func accept(on listener: NIOAsyncChannel<MPDAcceptedClient, Never>, of address: MPDAddress) async {
        defer { forget(listener.channel) }
        do {
            try await listener.executeThenClose { clients in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await accepted in clients {
                        guard let (client, terms) = accepted.take() else { continue }
                        group.addTask { await self.serve(client, terms: terms) }
                    }
                }
            }
        } catch {
            logger.debug("MPD: listener on \(address) ended: \(error)")
        }
    }

    /// Closes each TCP listener other machines can reach (the password is gone: a reload).
    func closeReachable() {
        let reachable = channels.withLock { open -> [(MPDAddress, any Channel)] in
            var found: [(MPDAddress, any Channel)] = []
            for (address, listeners) in open.listeners {
                for listener in listeners where Self.isReachable(listener) { found.append((address, listener)) }
            }
            for (address, _) in found {
                open.listeners[address] = nil
                open.serving[address] = nil
            }
            return found
        }
        for (address, listener) in reachable {
            logger.error("MPD: [mpd] has no password now: no longer listening on \(address), which other machines can reach")
            listener.close(promise: nil)
        }
    }

    /// A bound address as `[mpd] listen` writes one: `127.0.0.1:6600`, `[::1]:6600`.
    static func shown(_ address: SocketAddress) -> String? {
        guard let ip = address.ipAddress, let port = address.port else { return nil }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// Whether a listener's bound address is one other machines can reach (not loopback).
    static func isReachable(_ listener: any Channel) -> Bool {
        guard let address = listener.localAddress, let endpoint = MPDPeerLookup.Endpoint(address) else { return false }
        return !endpoint.isLoopback
    }

    /// What to say when a TCP port is taken: who holds it, and where the daemon's own clients
    /// reach it instead — a client that connects to the port talks to the other program, and
    /// would send it the password (`mpc` does, first).
    func taken(_ address: MPDAddress, by error: any Error) -> String? {
        guard case .tcp(let host, let port) = address, (error as? IOError)?.errnoCode == EADDRINUSE else { return nil }
        let family = host.contains(":") ? AF_INET6 : AF_INET
        var holder = "another program"
        if let uid = MPDPeerLookup.listenerOwner(port: port, family: family) ?? MPDPeerLookup.listenerOwner(port: port, family: family == AF_INET ? AF_INET6 : AF_INET) {
            holder = uid == MPDPeerLookup.ownUID ? "another program of this user" : "a program of another user (uid \(uid))"
        }
        let sockets = context.settings.listen.compactMap { listen -> String? in
            if case .unix(let path) = listen { return path }
            return nil
        }
        let instead = sockets.isEmpty ? "add a unix socket to [mpd] listen for them" : "point them at \(sockets.joined(separator: " or "))"
        return "the port is held by \(holder): MPD clients that connect to \(host):\(port) do not reach cloudplayerd, "
            + "and send that program what they send (the password too); \(instead)"
    }
}
