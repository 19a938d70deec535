import DBus
import Foundation
import Loader
import Manager1
import Model
import MPRIS
import Playback

/// The player on the session bus: MPRIS, and `org.cloudplayerd.Manager1` when there is a
/// library to manage, on one connection under one well-known name. The objects are registered
/// before the name is taken, so a client that sees the name finds them.
package final class BusPublication: Sendable {
    package let name: String
    package let mpris: MPRISService
    private let connection: BusConnection
    /// Why the bus went away, once, if it does (the bus daemon stopped or dropped the
    /// connection); it finishes without an element after `stop()`. A daemon no client can reach
    /// must not play on unnoticed.
    package let losses: AsyncStream<String>

    /// Connects (to `address`, or the session bus), publishes, and takes the name for `instance`.
    /// Without a `manager` (`cloudplayerd play`), MPRIS places the tracks clients add by `sources`
    /// (the manager's intake otherwise) and offers no playlists.
    package init(player: Player, manager: Manager1Service? = nil, sources: SourceSet, instance: String? = nil,
                 address: String? = nil) async throws {
        let name = Manager1.busName(instance: instance)
        let connection = try BusConnection(address: address)
        do {
            let library: any MPRISLibrary = manager ?? SourcesOnly()
            let intake = manager?.intake ?? QueueIntake(player: player, sources: { sources })
            let mpris = try await MPRISService(player: player, library: library, intake: intake, connection: connection)
            try await manager?.publish(on: connection) { mpris.refreshPlaylists() }
            try await connection.requestName(name)
            self.mpris = mpris
        } catch {
            await connection.close()
            throw error
        }
        self.name = name
        self.connection = connection
        let (losses, sink) = AsyncStream.makeStream(of: String.self)
        self.losses = losses
        Task {
            if let reason = await connection.ended() { sink.yield(reason) }
            sink.finish()
        }
    }

    /// Quit requests from MPRIS clients.
    package var quitRequests: AsyncStream<Void> { mpris.quitRequests }

    /// Stops following the player, releases the name and closes the connection.
    package func stop() async {
        await mpris.stop()
        await connection.close()
    }
}

/// MPRIS without a library (`cloudplayerd play`): there are no playlists.
private struct SourcesOnly: MPRISLibrary {
    func playlists() async -> [MPRISPlaylist] { [] }

    func activate(libraryID: Int64) async throws {
        throw LoaderError.configuration("there is no library to play playlists from")
    }
}
