/// Every command the server knows, by name: the families merged. A family adds itself by
/// being named in `families` (one line each).
package enum MPDCommandTable {
    /// The families, core first; a name in two families is a mistake the tests catch (the
    /// later one would win).
    package static var families: [any MPDCommandFamily.Type] { [
        ConnectionCommands.self,
        StatusCommands.self,
        PlaybackCommands.self,
        QueueCommands.self, QueueOrderCommands.self,
        OutputCommands.self,
        DatabaseCommands.self, StoredPlaylists.self, Art.self,
        AbsentFeatures.self,
    ] }

    package static let commands: [String: MPDCommand] = {
        var table: [String: MPDCommand] = [:]
        for family in families { table.merge(family.commands) { _, later in later } }
        return table
    }()

    /// The names, sorted (as `commands` lists them).
    package static let names: [String] = commands.keys.sorted()

    /// Names in two families or more (should be none).
    package static var duplicates: [String] {
        var seen: [String: Int] = [:]
        for family in families { for name in family.commands.keys { seen[name, default: 0] += 1 } }
        return seen.filter { $0.value > 1 }.map(\.key).sorted()
    }

    /// The command a request names, checked as MPD checks it: known, permitted, and given a
    /// number of arguments it takes.
    package static func command(for request: MPDRequest, permissions: MPDPermission) throws(MPDError) -> MPDCommand {
        guard let command = commands[request.name] else { throw .unknownCommand(request.name) }
        guard permissions.isSuperset(of: command.permission) else { throw .permission(request.name) }
        try command.checkArguments(request.arguments.count, name: request.name)
        return command
    }
}
