import Base

/// What the handlers on a client's channel need to know of its connection, which the connection
/// changes as the client goes on: the longest line it may send, how long it may be silent, and
/// whether it waits in `idle` (not silence). Shared between the event loop (which reads it) and
/// the connection's task (which sets it); a lock, taken for a moment at each line.
final class MPDClientTerms: Sendable {
    struct Terms {
        var lineLimit: Int
        var timeout: Duration
        var idling = false
    }

    private let terms: Locked<Terms>

    init(lineLimit: Int, timeout: Duration) {
        terms = Locked(Terms(lineLimit: lineLimit, timeout: timeout))
    }

    var current: Terms { terms.withLock { $0 } }

    /// The terms of a client let in (`limits`), or of one let in to nothing yet (`MPDLimits.entry`).
    func set(letIn: Bool, limits: MPDLimits) {
        terms.withLock { terms in
            terms.lineLimit = letIn ? MPDServer.lineLimit : MPDLimits.entry.lineLength
            terms.timeout = letIn ? limits.connectionTimeout : MPDLimits.entry.timeout
        }
    }

    func setIdling(_ idling: Bool) {
        terms.withLock { $0.idling = idling }
    }
}
