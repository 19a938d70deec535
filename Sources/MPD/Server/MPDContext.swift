import Base
import Playback

/// What every command reaches: the player (commands go to it), the intake (additions go through
/// it, as MPRIS's), the library, the server's state projected from the player's events, the
/// idle hub, and the settings.
package final class MPDContext: Sendable {
    package let player: Player
    package let intake: QueueIntake
    package let library: any MPDLibrary
    package let idle = MPDIdleHub()
    private let state = Locked(MPDState())
    private let chosen: Locked<MPDSettings>

    package init(player: Player, intake: QueueIntake, library: any MPDLibrary, settings: MPDSettings) {
        self.player = player
        self.intake = intake
        self.library = library
        chosen = Locked(settings)
    }

    /// `[mpd]` as the config file said it last (a reload replaces it): the password and the
    /// default permissions count for connections from then on; a connection keeps what its
    /// client was granted.
    package var settings: MPDSettings { chosen.withLock { $0 } }

    /// Takes a reloaded `[mpd]`; the addresses are the server's to change (`MPDServer.reload`).
    func replace(_ settings: MPDSettings) {
        chosen.withLock { $0 = settings }
    }

    /// The state as the last event left it.
    package var current: MPDState { state.withLock { $0 } }

    /// The last snapshot.
    package var snapshot: PlayerSnapshot { state.withLock { $0.snapshot } }

    /// Changes the server's state.
    @discardableResult
    package func update<T>(_ change: (inout MPDState) -> T) -> T {
        state.withLock(change)
    }

    /// Runs a player command and takes the state it leaves at once, so the client's next
    /// `status` sees its effect (the event that says so may come a moment later).
    @discardableResult
    package func perform(_ command: PlayerCommand) async -> PlayerSnapshot {
        let snapshot = await player.perform(command)
        take(snapshot)
        return snapshot
    }

    /// A snapshot from the player, unless a newer one is here already.
    package func take(_ snapshot: PlayerSnapshot) {
        state.withLock { state in
            if snapshot.serial >= state.snapshot.serial { state.follow(snapshot) }
        }
    }

    /// A client may now do something: the bounds of a client let in (`MPDClientTerms`), and the
    /// song catalog made if it is not (`MPDLibrary.clientArrived`: a daemon no client reads
    /// holds none, and a stranger let in to nothing costs it nothing).
    func letIn(_ terms: MPDClientTerms) {
        terms.set(letIn: true, limits: settings.limits)
        library.clientArrived()
    }

    /// What a new connection of `peer` may do: the owner everything without a password, else
    /// the default ones; a stranger the default ones (none unless `default_permissions` says),
    /// with a password or without — without one there is nothing a stranger can send to be let in.
    package func initialPermissions(for peer: MPDPeer) -> MPDPermission {
        let settings = settings
        return settings.password == nil && peer.isOwner ? .all : settings.defaultPermissions
    }
}
