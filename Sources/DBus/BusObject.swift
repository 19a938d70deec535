import CSystemd
import Glibc

/// An object we publish on a connection: a path and its interfaces. Signals and change
/// announcements go out from here, on the connection's thread.
package final class BusObject: Sendable {
    package let path: String
    package let interfaces: [BusInterface]
    private let connection: BusConnection

    package init(path: String, interfaces: [BusInterface], connection: BusConnection) {
        self.path = path
        self.interfaces = interfaces
        self.connection = connection
    }

    /// Adds every interface to the bus; the object then lives as long as the connection.
    package func register() async throws {
        connection.keepAlive(self)
        try await connection.register { [self] bus in
            var status: Int32 = 0
            for interface in interfaces where status >= 0 {
                status = interface.register(on: bus, path: path, connection: connection)
            }
            return status
        }
    }

    /// Emits a signal of one of its interfaces.
    package func emit<each Argument>(_ signal: BusSignalDescription<repeat each Argument>, of interface: String,
                                     _ arguments: repeat each Argument) {
        let values = signal.encode(repeat each arguments)
        let path = path
        connection.perform { bus in BusSignal.emit(on: bus, path: path, interface: interface, member: signal.name, values) }
    }

    /// Emits PropertiesChanged for `names` of `interface` (with their new values, or only their
    /// names, as each property's announcement says).
    package func announce(_ names: [String], of interface: String) {
        guard !names.isEmpty else { return }
        let path = path
        connection.perform { bus in
            var pointers = names.map { strdup($0) } + [nil]
            defer { pointers.forEach { free($0) } }
            _ = sd_bus_emit_properties_changed_strv(bus, path, interface, &pointers)
        }
    }
}
