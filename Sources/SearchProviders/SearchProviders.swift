import DBus

/// The desktop's search over the library: GNOME Shell's search provider and KRunner's runner,
/// each an object on the daemon's connection, under its MPRIS name — so the one D-Bus activation
/// file that starts the daemon for a media key starts it for a search too.
package enum SearchProviders {
    /// Registers both objects on `connection` (before its owner takes the bus name, so a shell
    /// that sees the name finds them).
    package static func publish(_ search: DesktopSearch, on connection: BusConnection) async throws {
        try await BusObject(path: GnomeSearchProvider.path, interfaces: [GnomeSearchProvider.busInterface(search)], connection: connection).register()
        try await BusObject(path: KRunnerRunner.path, interfaces: [KRunnerRunner.busInterface(search)], connection: connection).register()
    }
}
