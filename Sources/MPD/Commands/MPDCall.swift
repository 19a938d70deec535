import FoundationEssentials

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
    /// Whether this connection came by the unix socket (MPD gives local clients no more rights
    /// unless configured; neither do we).
    package var local = false
    /// The cover this client read a chunk of last (`albumart`/`readpicture`): its next chunks
    /// come from the same file, without asking the library or the source again.
    package var lastCover: (command: String, uri: String, file: URL?)?

    package init(id: UInt64, permissions: MPDPermission) {
        self.id = id
        self.permissions = permissions
    }
}
