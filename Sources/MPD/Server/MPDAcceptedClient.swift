import Base
import NIOCore

/// A client accepted, until the server takes it to serve. NIO hands over no client accepted as
/// its listener closes (a reload dropping the address): such a client stayed connected, unserved,
/// its socket open until the daemon ended (112 sockets after 30 reloads under a stream of
/// connects). The listener's close now closes every client not taken by then.
final class MPDAcceptedClient: Sendable {
    private let channel: NIOAsyncChannel<MPDLine, ByteBuffer>
    private let state = Locked(State.waiting)

    private enum State {
        case waiting, taken, dropped
    }

    init(_ channel: NIOAsyncChannel<MPDLine, ByteBuffer>) {
        self.channel = channel
    }

    /// The client, to serve; nil when the listener's close dropped it.
    func take() -> NIOAsyncChannel<MPDLine, ByteBuffer>? {
        state.withLock { state in
            guard case .waiting = state else { return nil }
            state = .taken
            return channel
        }
    }

    /// At the listener's close: the client is closed unless the server took it.
    func dropUnlessTaken() {
        let drop = state.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            state = .dropped
            return true
        }
        if drop { channel.channel.close(promise: nil) }
    }
}
