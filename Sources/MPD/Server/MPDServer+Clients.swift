import NIOCore

/// Taking a client: who it is (`MPDPeerLookup`), whether there is room for it (`MPDAdmission`),
/// what it may do, then its connection until it ends.
extension MPDServer {
    func serve(_ client: NIOAsyncChannel<MPDInput, ByteBuffer>, terms: MPDClientTerms) async {
        guard keep(client.channel) else { return }
        defer { forget(client.channel) }
        let peer = await MPDPeerLookup.peer(of: client.channel)
        let limits = context.settings.limits
        let (admitted, note) = admission.admit(peer, limits: limits)
        switch note {
        case .refusing?:
            logger.warning("MPD: Max connections reached (\(limits.maxConnections), \(limits.strangerConnections) of them for other users and machines): new connections are closed, the first from \(peer)")
        case .refused(let count)?:
            logger.notice("MPD: connections taken again; \(count) were closed while there was no room")
        case nil:
            break
        }
        guard admitted else {
            client.channel.close(promise: nil)
            return
        }
        defer { admission.leave(peer) }
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        let session = MPDSession(id: id, permissions: context.initialPermissions(for: peer), peer: peer)
        if !session.permissions.isEmpty { context.letIn(terms) }
        logger.debug("MPD client \(id) connected: \(peer)")
        await MPDConnection(channel: client, context: context, session: session, terms: terms, guesses: guesses, logger: logger).run()
    }
}
