import ArgumentParser

struct PlaylistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Playlists: your own, and the folders, feeds and playlist files found by scans.",
        subcommands: [List.self, Create.self, Add.self, Remove.self, Delete.self, Play.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "Lists playlists, or the tracks of one.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "A playlist's id or name: list its tracks.") var playlist: String?

        func run() async throws {
            let daemon = try Daemon.connect(options)
            if let playlist {
                let tracks = try await daemon.value("PlaylistShow", [.string(playlist)])
                await daemon.close()
                return Formatting.print(tracks, json: options.json, columns: Formatting.trackColumns)
            }
            let playlists = try await daemon.value("PlaylistList")
            await daemon.close()
            Formatting.print(playlists, json: options.json, columns: [
                ("ID", { String($0["id"]?.integer ?? 0) }), ("NAME", { $0["name"]?.text ?? "" }),
                ("KIND", { $0["kind"]?.text ?? "" }), ("TRACKS", { String($0["tracks"]?.integer ?? 0) }),
                ("SOURCE", { $0["source"]?.text ?? "" }), ("PINNED", { $0["pinned"]?.flag == true ? "yes" : "" }),
            ])
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Creates one of your own playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument var name: String

        func run() async throws {
            let id = try await Daemon.value(options, "PlaylistCreate", [.string(name)])
            options.json ? say(id.json) : say("created playlist \(id.integer ?? 0): \(name)")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Appends tracks to one of your playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String
        @Argument(help: "Library track ids, URLs or files.") var tracks: [String]

        func run() async throws {
            _ = try await Daemon.value(options, "PlaylistAdd", [.string(playlist), .strings(tracks.map(trackReference))])
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Takes tracks out of one of your playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String
        @Argument(help: "Library track ids, URLs or files.") var tracks: [String]

        func run() async throws {
            let removed = try await Daemon.value(options, "PlaylistRemove", [.string(playlist), .strings(tracks.map(trackReference))])
            options.json ? say(removed.json) : say("removed \(removed.integer ?? 0) tracks")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Deletes one of your playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String

        func run() async throws {
            _ = try await Daemon.value(options, "PlaylistDelete", [.string(playlist)])
        }
    }

    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "play", abstract: "Replaces the queue with a playlist and plays it.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String

        func run() async throws {
            _ = try await Daemon.value(options, "PlaylistPlay", [.string(playlist)])
        }
    }
}
