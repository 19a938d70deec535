import DBus
import FoundationEssentials
import Loader
import Logging
import Manager1
import Model
import MPRIS
import Playback
import SearchProviders
import ServiceLifecycle

/// The player on the session bus: MPRIS, and `org.cloudplayerd.Manager1` and the desktop's
/// search (GNOME Shell, KRunner) when there is a library, on one connection under one
/// well-known name. The objects are registered
/// before the name is taken, so a client that sees the name finds them.
///
/// A `Service` (the MPRIS object following the player is another, `mpris`): `run()` holds the
/// connection until the daemon stops, a client calls `Quit` (it returns, and the group stops), or
/// the bus goes away (it throws `BusLost`: a daemon no client can reach must not play on
/// unnoticed).
package final class BusPublication: Service {
    package let name: String
    package let mpris: MPRISService
    private let connection: BusConnection
    /// Whether losing the bus stops the group (the daemon); else playing goes on unpublished
    /// (`cloudplayerd play`).
    private let losingTheBusStops: Bool

    /// Connects (to `address`, or the session bus), publishes, and takes the name for `instance`.
    /// Without a `manager` (`cloudplayerd play`), MPRIS places the tracks clients add by `sources`
    /// (the manager's intake otherwise) and offers no playlists.
    package init(player: Player, manager: Manager1Service? = nil, sources: SourceSet, instance: String? = nil,
                 address: String? = nil, losingTheBusStops: Bool = true) async throws {
        let name = Manager1.busName(instance: instance)
        let connection = try BusConnection(address: address)
        do {
            let library: any MPRISLibrary = manager ?? SourcesOnly()
            let intake = manager?.intake ?? QueueIntake(player: player, sources: { sources })
            let mpris = try await MPRISService(player: player, library: library, intake: intake, connection: connection)
            try await manager?.publish(on: connection) { mpris.refreshPlaylists() }
            if let manager { try await SearchProviders.publish(manager.desktopSearch, on: connection) }
            try await connection.requestName(name)
            self.mpris = mpris
        } catch {
            await connection.close()
            throw error
        }
        self.name = name
        self.connection = connection
        self.losingTheBusStops = losingTheBusStops
    }

    private enum Ending: Sendable {
        case shutdown, quit, lost(String)
    }

    /// Serves until the first of: the daemon stops, a client's Quit, the bus gone; then releases
    /// the name and closes the connection.
    package func run() async throws {
        let quits = mpris.quitRequests
        let ending = await withTaskGroup(of: Ending?.self) { [connection] group in
            group.addTask { await connection.ended().map(Ending.lost) }
            group.addTask {
                for await _ in quits { return .quit }
                return nil
            }
            group.addTask { (try? await gracefulShutdown()).map { .shutdown } }
            var first: Ending?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .shutdown
        }
        await connection.close()
        guard case .lost(let reason) = ending else { return }
        guard losingTheBusStops else {
            Logger(label: "cloudplayerd.bus").notice("lost the session bus (\(reason)); playing on without MPRIS")
            try? await gracefulShutdown()
            return
        }
        throw BusLost(reason: reason)
    }

    /// Closes the connection of a publication whose services never ran (the daemon failed to
    /// start after publishing).
    package func close() async {
        await connection.close()
    }
}

/// The session bus went away under the daemon: it stops (exit status 3, so that systemd starts a
/// fresh one on the new bus).
package struct BusLost: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "lost the session bus connection (\(reason))" }
}

/// MPRIS without a library (`cloudplayerd play`): there are no playlists.
private struct SourcesOnly: MPRISLibrary {
    func playlists() async -> [MPRISPlaylist] { [] }

    func activate(libraryID: Int64) async throws {
        throw LoaderError.configuration("there is no library to play playlists from")
    }
}
