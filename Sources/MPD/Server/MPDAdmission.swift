import Base

/// Who is connected, counted against `max_connections`: strangers may hold nine seats in ten
/// (`MPDLimits.strangerConnections`), so a crowd of another user's connections never keeps the
/// owner's own client out; over the limit a connection is closed unanswered, as MPD closes it.
/// A refusal is said once when they begin, and their count once a client is let in again — a
/// flood of connections is two journal lines, not one per connection.
final class MPDAdmission: Sendable {
    private struct Seats {
        var owner = 0
        var strangers = 0
        /// Refused since the last one let in.
        var refused = 0
    }

    /// What the journal should hear of an admission.
    enum Note: Equatable {
        /// The first refusal after clients were let in.
        case refusing
        /// A client let in after `refused` were not.
        case refused(Int)
    }

    private let seats = Locked(Seats())

    /// Takes a seat for `peer` (true), or refuses it (false); with what to say of it, if anything.
    func admit(_ peer: MPDPeer, limits: MPDLimits) -> (admitted: Bool, note: Note?) {
        seats.withLock { seats in
            let total = seats.owner + seats.strangers
            let fits = total < limits.maxConnections && (peer.isOwner || seats.strangers < limits.strangerConnections)
            guard fits else {
                seats.refused += 1
                return (false, seats.refused == 1 ? .refusing : nil)
            }
            if peer.isOwner { seats.owner += 1 } else { seats.strangers += 1 }
            defer { seats.refused = 0 }
            return (true, seats.refused > 0 ? .refused(seats.refused) : nil)
        }
    }

    /// Gives back the seat `peer` took.
    func leave(_ peer: MPDPeer) {
        seats.withLock { seats in
            if peer.isOwner { seats.owner -= 1 } else { seats.strangers -= 1 }
        }
    }
}
