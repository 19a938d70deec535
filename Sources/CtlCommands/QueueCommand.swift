import ArgumentParser
import DBus
import Manager1

struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "The play queue.",
        subcommands: [Add.self, List.self, Clear.self, Play.self], defaultSubcommand: List.self)

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Adds tracks (library ids, URLs or files) to the end of the queue.",
            discussion: "With --play and no tracks it plays what the queue holds, as `play` does: the desktop's launcher runs it so, with the files it was given, if any.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Play the first of them now.") var play = false
        @Argument(help: "Library track ids (see ls, search), http(s) URLs, or files.") var tracks: [String] = []

        func validate() throws {
            guard play || !tracks.isEmpty else { throw ValidationError("name at least one track to add") }
        }

        func run() async throws {
            // The launcher with no file: start (D-Bus activation) or resume the player.
            guard !tracks.isEmpty else { return try await ControlCommands.send(options, "play") }
            let (added, raw) = try await Daemon.call(options, Manager1.queueAdd, tracks.map(trackReference), play)
            options.json ? say(raw.json) : say("queued \(Int(added).counted("track"))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "Lists the queue; the current track is marked.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let entries = try await Daemon.call(options, Manager1.queueList)
            Formatting.print(entries, json: options.json, columns: [
                ("#", { ($0.current ? "▶ " : "  ") + String($0.index + 1) }),
                ("TITLE", { $0.title }), ("ARTIST", { $0.artist ?? "" }),
                ("TIME", { Formatting.duration($0.duration) }),
                // What could play offline: the whole track, part of it, or nothing.
                ("CACHED", { $0.cached ?? "" }),
            ])
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Stops and empties the queue.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.queueClear)
        }
    }

    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "play", abstract: "Plays the queue from entry N (as queue ls numbers them).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The entry's number, from 1.") var number: UInt32 = 1

        func validate() throws {
            guard number >= 1 else { throw ValidationError("entries are numbered from 1") }
        }

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.queuePlay, number - 1)
        }
    }
}
