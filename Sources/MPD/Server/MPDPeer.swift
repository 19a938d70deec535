/// Who is at the other end of an MPD connection, as the kernel tells it — never as the client
/// says. The owner (the daemon's own user) is who the player is for; anyone else is a stranger:
/// another user of this machine, another machine, or a local client whose user could not be
/// told. A stranger gets `default_permissions` until it sends the password, and even then never
/// this machine's files or the addresses of this machine and its network (`MPDSession.requester`).
package enum MPDPeer: Sendable, Hashable, CustomStringConvertible {
    /// The daemon's own user: by `SO_PEERCRED` on the unix socket, or by the uid owning the
    /// client's socket of a TCP connection from this machine.
    case owner
    /// Another user of this machine, by uid.
    case user(uid: UInt32)
    /// Another machine, by its address.
    case remote(address: String)
    /// A client of this machine whose user could not be told: its socket was gone before it was
    /// looked up, or the kernel's table could not be read.
    case unknown

    package var isOwner: Bool { self == .owner }

    /// What wrong passwords are counted by (`MPDPasswordGuard`): the uid or the machine, not
    /// the connection — a guesser gains nothing by opening more of them.
    package var guessingKey: String {
        switch self {
        case .owner: "owner"
        case .user(let uid): "uid \(uid)"
        case .remote(let address): address
        case .unknown: "unknown"
        }
    }

    package var description: String {
        switch self {
        case .owner: "the daemon's own user"
        case .user(let uid): "uid \(uid)"
        case .remote(let address): address
        case .unknown: "a local user that could not be told"
        }
    }
}
