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

/// What a command list's `add`s named and has not queued yet, in order: items, or songs of the
/// library by location, looked up together when they are queued (`resolved`) — 10,000 adds of
/// songs by path asked the library 10,000 times, one actor hop and one query each, for 3 s. The
/// queue's limits are checked as each comes, against what they count so far.
package struct MPDDeferredAdds: Sendable {
    enum Named: Sendable {
        case items([QueueItem])
        case song(location: String)
    }

    private(set) var named: [Named] = []
    /// Entries so far (a folder counts one until it is looked up) and their locations' bytes.
    package private(set) var count = 0
    package private(set) var bytes = 0
    /// Where songs are, by MPD path, placed once for the list (`MPDLibrary.songLocations`).
    package var locate: (@Sendable (String) -> String?)?

    package init() {}

    package var isEmpty: Bool { named.isEmpty }

    package mutating func append(_ items: [QueueItem]) {
        named.append(.items(items))
        count += items.count
        bytes += items.reduce(0) { $0 + $1.location.uri.utf8.count }
    }

    package mutating func appendSong(at location: String) {
        named.append(.song(location: location))
        count += 1
        bytes += location.utf8.count
    }

    /// Takes back the last one appended (the add that did not fit).
    package mutating func dropLast() {
        switch named.popLast() {
        case .items(let items)?:
            count -= items.count
            bytes -= items.reduce(0) { $0 + $1.location.uri.utf8.count }
        case .song(let location)?:
            count -= 1
            bytes -= location.utf8.count
        case nil:
            break
        }
    }

    /// Everything named, as queue items in order, the songs looked up in one go.
    package func resolved(by library: any MPDLibrary) async throws -> [QueueItem] {
        let songs = named.compactMap { named -> String? in
            if case .song(let location) = named { return location }
            return nil
        }
        var found = try await library.items(forSongLocations: songs).makeIterator()
        var items: [QueueItem] = []
        for named in named {
            switch named {
            case .items(let some): items += some
            case .song: items += found.next() ?? []
            }
        }
        return items
    }
}
