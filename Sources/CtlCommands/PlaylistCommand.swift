import ArgumentParser
import DBus
import Manager1

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
            if let playlist {
                let tracks = try await Daemon.call(options, Manager1.playlistShow, playlist)
                return Formatting.print(tracks, json: options.json, columns: Formatting.trackColumns)
            }
            let playlists = try await Daemon.call(options, Manager1.playlistList)
            Formatting.print(playlists, json: options.json, columns: [
                ("ID", { String($0.id) }), ("NAME", { $0.name }),
                ("KIND", { $0.kind }), ("TRACKS", { String($0.tracks) }),
                ("SOURCE", { $0.source }), ("PINNED", { $0.pinned ? "yes" : "" }),
            ])
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Creates one of your own playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument var name: String

        func run() async throws {
            let (id, raw) = try await Daemon.call(options, Manager1.playlistCreate, name)
            options.json ? say(raw.json) : say("created playlist \(id): \(name)")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Appends tracks to one of your playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String
        @Argument(help: "Library track ids, URLs or files.") var tracks: [String]

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.playlistAdd, playlist, tracks.map(trackReference))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Takes tracks out of one of your playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String
        @Argument(help: "Library track ids, URLs or files.") var tracks: [String]

        func run() async throws {
            let (removed, raw) = try await Daemon.call(options, Manager1.playlistRemove, playlist, tracks.map(trackReference))
            options.json ? say(raw.json) : say("removed \(Int(removed).counted("track"))")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Deletes one of your playlists.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.playlistDelete, playlist)
        }
    }

    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "play", abstract: "Replaces the queue with a playlist and plays it.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.playlistPlay, playlist)
        }
    }
}
