import Base
import NIOCore

/// A client accepted by a listener, until the server takes it to serve.
struct MPDAcceptedClient: Sendable {
    private let client: NIOAsyncChannel<MPDInput, ByteBuffer>
    private let terms: MPDClientTerms
    private let listener: MPDWaitingClients

    init(_ client: NIOAsyncChannel<MPDInput, ByteBuffer>, terms: MPDClientTerms, waitingIn listener: MPDWaitingClients) {
        self.client = client
        self.terms = terms
        self.listener = listener
    }

    /// The client, to serve, and the terms its channel's handlers go by; nil when its
    /// listener's close closed it first.
    func take() -> (NIOAsyncChannel<MPDInput, ByteBuffer>, MPDClientTerms)? {
        listener.take(client.channel) ? (client, terms) : nil
    }
}

/// The clients a listener accepted that the server has not taken yet. NIO hands over no client
/// accepted as its listener closes (a reload dropping the address): such a client stayed
/// connected, unserved, its socket open until the daemon ended (112 sockets after 30 reloads
/// under a stream of connects). At the listener's close those still waiting are closed. One set
/// per listener, emptied as clients are taken: nothing of a client stays behind once served.
final class MPDWaitingClients: Sendable {
    /// By the channel's identity (the channel held here, so it is no other's); nil once closed.
    private let waiting = Locked<[ObjectIdentifier: any Channel]?>([:])

    /// Keeps `client` until it is taken; closes it at once when the listener is closed already.
    func add(_ client: NIOAsyncChannel<MPDInput, ByteBuffer>, terms: MPDClientTerms) -> MPDAcceptedClient {
        let kept = waiting.withLock { waiting -> Bool in
            waiting?[ObjectIdentifier(client.channel)] = client.channel
            return waiting != nil
        }
        if !kept { client.channel.close(promise: nil) }
        return MPDAcceptedClient(client, terms: terms, waitingIn: self)
    }

    /// Whether `channel` was waiting: it is taken now.
    fileprivate func take(_ channel: any Channel) -> Bool {
        waiting.withLock { $0?.removeValue(forKey: ObjectIdentifier(channel)) != nil }
    }

    /// At the listener's close: every client not taken is closed.
    func closeWaiting() {
        let left = waiting.withLock { waiting -> [any Channel] in
            defer { waiting = nil }
            return waiting.map { Array($0.values) } ?? []
        }
        for channel in left { channel.close(promise: nil) }
    }
}
