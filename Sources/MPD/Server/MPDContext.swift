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

    /// What a new connection may do: everything without a password, else the default ones.
    package var initialPermissions: MPDPermission {
        let settings = settings
        return settings.password == nil ? .all : settings.defaultPermissions
    }
}
