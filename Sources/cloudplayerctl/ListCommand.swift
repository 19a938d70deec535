import ArgumentParser
import DBus
import Foundation

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "Lists library tracks by artist, album, title or source.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "Artist contains this.") var artist: String?
    @Option(help: "Album contains this.") var album: String?
    @Option(help: "Title contains this.") var title: String?
    @Option(help: "Only this source.") var source: String?
    @Option(help: "At most this many.") var limit: UInt32 = 200
    @Option(help: "Skip this many first.") var offset: UInt32 = 0

    func run() async throws {
        let daemon = try Daemon.connect(options)
        let tracks = try await daemon.value("ListTracks", [.string(artist ?? ""), .string(album ?? ""), .string(title ?? ""),
                                                           .string(source ?? ""), .uint32(offset), .uint32(limit)])
        await daemon.close()
        Formatting.print(tracks, json: options.json, columns: Formatting.trackColumns)
    }
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Full-text search over titles, artists, albums and genres.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "Words of the track's tags; the last may be just the start of one.") var words: [String]
    @Option(help: "At most this many.") var limit: UInt32 = 50

    func run() async throws {
        let tracks = try await Daemon.value(options, "Search", [.string(words.joined(separator: " ")), .uint32(limit)])
        Formatting.print(tracks, json: options.json, columns: Formatting.trackColumns)
    }
}

struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sources", abstract: "The configured sources and what the library holds of each.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let sources = try await Daemon.value(options, "Sources")
        Formatting.print(sources, json: options.json, columns: [
            ("NAME", { $0["name"]?.text ?? "" }), ("TYPE", { $0["type"]?.text ?? "" }),
            ("TRACKS", { String($0["tracks"]?.integer ?? 0) }), ("GONE", { String($0["gone"]?.integer ?? 0) }),
            ("LAST SCAN", Self.lastScan),
            ("URL", { $0["url"]?.text ?? "" }),
        ])
    }

    @Sendable static func lastScan(_ row: BusData) -> String {
        guard let time = row["last_scan"]?.integer, time >= 0 else { return "never" }
        return Date(timeIntervalSince1970: Double(time)).formatted(date: .abbreviated, time: .shortened)
    }
}
