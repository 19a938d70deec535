import DBus
import Manager1
import MPRIS
import Playback

/// The player on the session bus: MPRIS, and `org.cloudplayerd.Manager1` when there is a
/// library to manage, on one connection under one well-known name. The objects are registered
/// before the name is taken, so a client that sees the name finds them.
package final class BusPublication: Sendable {
    package let name: String
    package let mpris: MPRISService
    private let connection: BusConnection

    /// Connects (to `address`, or the session bus), publishes, and takes the name for `instance`.
    package init(player: Player, manager: Manager1Service? = nil, instance: String? = nil, address: String? = nil) async throws {
        let name = Manager1.busName(instance: instance)
        let connection = try BusConnection(address: address)
        do {
            let mpris = try await MPRISService(player: player, library: manager, connection: connection)
            try await manager?.publish(on: connection) { mpris.refreshPlaylists() }
            try await connection.requestName(name)
            self.mpris = mpris
        } catch {
            await connection.close()
            throw error
        }
        self.name = name
        self.connection = connection
    }

    /// Quit requests from MPRIS clients.
    package var quitRequests: AsyncStream<Void> { mpris.quitRequests }

    /// Stops following the player, releases the name and closes the connection.
    package func stop() async {
        await mpris.stop()
        await connection.close()
    }
}
