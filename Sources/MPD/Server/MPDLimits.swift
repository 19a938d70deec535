/// How much of the daemon each MPD client may hold, as MPD bounds it (`max_connections`,
/// `connection_timeout`, `max_command_list_size`, `max_output_buffer_size`, MPD's defaults) —
/// so that no client, and no crowd of them, takes the descriptors, memory or time the owner's
/// own clients and the desktop's media keys need. A client that has been let in to nothing yet
/// (a stranger without the password, any client before a configured password) is held tighter
/// (`entry`): it can only say `password`, `ping` and the like, and needs no more.
package struct MPDLimits: Sendable, Equatable {
    /// Clients connected at once; one more is closed at once, as MPD closes it ("Max
    /// connections reached"). Strangers may hold `strangerConnections` of them: the rest is
    /// the owner's, so a stranger's crowd never locks out the user's own client.
    package var maxConnections = 100
    /// Silence after which a client is closed: no command from it and none of its answer
    /// taken. A client waiting in `idle` is not silent (MPD does not time out `idle` either).
    package var connectionTimeout: Duration = .seconds(60)
    /// The most bytes a command list may keep (its commands as the server holds them, not as
    /// they came); over it the client is closed, as MPD closes it.
    package var maxCommandListSize = 2048 * 1024
    /// The most bytes of answers held for one client: what it has not read yet stops its
    /// commands being read, and the part written but unsent never grows past this.
    package var maxOutputBufferSize = 8192 * 1024

    package init() {}

    /// The connections strangers may hold together: nine in ten, at least one.
    package var strangerConnections: Int { max(1, maxConnections - max(1, maxConnections / 10)) }

    /// The largest `binarylimit` a client may ask for: what fits the output buffer with the
    /// answer's own lines (MPD's `handle_binary_limit`: the buffer's size less 4096).
    package var maxBinaryLimit: Int { max(64, maxOutputBufferSize - 4096) }

    /// Bytes of answer handed to the socket beyond which writing waits for the client to read:
    /// a quarter of the output buffer, at most 256 KiB — enough to keep a fast client busy.
    var writeHighWatermark: Int { max(4096, min(256 * 1024, maxOutputBufferSize / 4)) }

    /// The bounds of a client that has been let in to nothing yet.
    package static let entry = Entry()

    package struct Entry: Sendable {
        /// Its command list: `password` and a few pings fit.
        package let commandListSize = 4096
        /// Its lines (MPD reads a line into a 4 KiB buffer).
        package let lineLength = 4096
        /// Its silence.
        package let timeout: Duration = .seconds(10)
    }
}
