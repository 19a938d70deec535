import FoundationEssentials

/// Why a client's request cannot join the queue. Each message is written here once, whichever
/// front (MPRIS, Manager1) the request came through; each front turns it into its D-Bus error.
package enum QueueRefusal: Error, Equatable, CustomStringConvertible {
    /// An empty list of tracks.
    case nothingNamed
    /// More references in one call than the queue could ever hold.
    case tooMany(Int)
    /// Neither a URI of a scheme cloudplayerd opens nor (where ids are taken) a library track id.
    case notALocation(String, idsTaken: Bool)
    /// A URI with a user or password: whatever is queued is shown to every client on the bus.
    case credentials
    /// Probing the track failed: it is missing, not audio, its source needs a login, …
    case cannotPlay(String, reason: String)
    /// The queue's limits.
    case full(QueueOverflow)
    /// A stranger named a file of this machine, or an address of this machine or its network
    /// (`QueueIntake.strangersLocation`); said alike whether it exists or not.
    case accessDenied

    package var description: String {
        switch self {
        case .nothingNamed:
            return "name at least one track"
        case .tooMany(let count):
            return "\(count) tracks named at once; the queue holds at most \(PlayQueue.maxEntries)"
        case .notALocation(let text, let idsTaken):
            let opened = "cloudplayerd opens \(QueueIntake.schemes.joined(separator: ", ")) URIs"
            return idsTaken ? "'\(Self.shown(text))' is neither a track id nor a location: \(opened)" : "cannot open this URI: \(opened)"
        case .credentials:
            return "credentials in a URI are not accepted over D-Bus; name the server in the config file"
        case .cannotPlay(let name, let reason):
            return "cannot play \(name): \(reason)"
        case .full(let overflow):
            return overflow.description
        case .accessDenied:
            return "Access denied"
        }
    }

    /// A reference as an error may repeat it: short, and without a user or password.
    private static func shown(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.user != nil || parts.password != nil else { return String(text.prefix(80)) }
        parts.user = nil
        parts.password = nil
        return String((parts.string ?? "").prefix(80))
    }
}
