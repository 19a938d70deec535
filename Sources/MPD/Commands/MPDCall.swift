import FoundationEssentials
import Playback

/// One command being handled: its request, the connection's state, the server's, and the answer
/// being written. Handlers take it `inout`.
package struct MPDCall: Sendable {
    package let request: MPDRequest
    package var session: MPDSession
    package let context: MPDContext
    package var response: MPDResponse

    package init(request: MPDRequest, session: MPDSession, context: MPDContext, response: MPDResponse = MPDResponse()) {
        self.request = request
        self.session = session
        self.context = context
        self.response = response
    }

    package var name: String { request.name }
    package var arguments: [String] { request.arguments }

    /// Argument `index`, if given.
    package func argument(_ index: Int) -> String? {
        arguments.indices.contains(index) ? arguments[index] : nil
    }

    /// Writes a song with the tags the client asked for.
    package mutating func write(_ song: MPDSong) {
        song.write(to: &response, tags: session.tags)
    }
}

/// What one connection keeps: what it may do, what it asked of the protocol.
package struct MPDSession: Sendable {
    /// A number for the log and the idle hub.
    package let id: UInt64
    package var permissions: MPDPermission
    /// `binarylimit`: the largest binary chunk this client takes (MPD's default 8192).
    package var binaryLimit = 8192
    /// `tagtypes`: the tags written in songs for this client.
    package var tags = MPDSong.allTags
    /// `close` was sent: the connection ends after this command.
    package var closing = false
    /// Who connected, as the kernel says (`MPDPeerLookup`).
    package let peer: MPDPeer
    /// Inside a command list: what its `add`s named, to be queued together when the list ends
    /// or another command comes (`MPDConnection.runList`); nil outside one.
    package var deferredAdds: MPDDeferredAdds?
    /// The cover this client read a chunk of last (`albumart`/`readpicture`): its next chunks
    /// come from the same file, without asking the library or the source again.
    package var lastCover: (command: String, uri: String, file: URL?)?

    package init(id: UInt64, permissions: MPDPermission, peer: MPDPeer = .owner) {
        self.id = id
        self.permissions = permissions
        self.peer = peer
    }

    /// Whose request a queue change is: a stranger's names no file of this machine and no
    /// address of it or its network, password or not (`QueueIntake.strangersLocation`).
    package var requester: Requester { peer.isOwner ? .owner : .stranger }
}

/// The items a command list's `add`s named and has not queued yet, with their locations' bytes
/// (the queue's limits are checked against both as each comes, not by adding them up again).
package struct MPDDeferredAdds: Sendable {
    package private(set) var items: [QueueItem] = []
    package private(set) var bytes = 0

    package init() {}

    package mutating func append(_ new: [QueueItem]) {
        items += new
        bytes += new.reduce(0) { $0 + $1.location.uri.utf8.count }
    }

    /// Takes back the last `count` items (the add that did not fit).
    package mutating func dropLast(_ count: Int) {
        bytes -= items.suffix(count).reduce(0) { $0 + $1.location.uri.utf8.count }
        items.removeLast(min(count, items.count))
    }
}
