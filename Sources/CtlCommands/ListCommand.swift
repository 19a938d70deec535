import ArgumentParser
import Base
import DBus
import FoundationEssentials
import Manager1

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
        let tracks = try await Daemon.call(options, Manager1.listTracks, artist ?? "", album ?? "", title ?? "", source ?? "", offset, limit)
        Formatting.print(tracks, json: options.json, columns: Formatting.trackColumns)
    }
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Full-text search over titles, artists, albums and genres.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "Words of the track's tags; the last may be just the start of one.") var words: [String]
    @Option(help: "At most this many.") var limit: UInt32 = 50

    func run() async throws {
        let query = words.joined(separator: " ")
        let tracks = try await Daemon.call(options, Manager1.search, query, limit)
        Formatting.print(tracks, json: options.json, columns: Formatting.trackColumns,
                         none: "no track matches \u{201C}\(TextTable.printable(query))\u{201D}")
    }
}

struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sources", abstract: "The configured sources and what the library holds of each.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let sources = try await Daemon.call(options, Manager1.sources)
        Formatting.print(sources, json: options.json, columns: [
            ("NAME", { $0.name }), ("TYPE", { $0.type }),
            ("TRACKS", { String($0.tracks) }), ("GONE", { String($0.gone) }),
            ("LAST SCAN", Self.lastScan),
            ("STATUS", Self.status),
            ("URL", { $0.url }),
        ])
    }

    /// "ok", or the first of its problems ("needs login: …"), cut short for the table: without
    /// the source's name and URL, which the row shows, so what is left is the cause.
    @Sendable static func status(_ row: Manager1.Source) -> String {
        guard var first = row.problems.split(separator: "\n").first.map(String.init) else { return "ok" }
        // A local source's URL is a file URL, which its errors spell as a path.
        let place = row.url.hasPrefix("file://") ? URL(string: row.url)?.path ?? row.url : row.url
        for said in [row.name + ": ", "cannot list " + place + ": "] where first.hasPrefix(said) {
            first.removeFirst(said.count)
        }
        return first.count > 60 ? first.prefix(59) + "…" : first
    }

    @Sendable static func lastScan(_ row: Manager1.Source) -> String {
        guard row.lastScan >= 0 else { return "never" }
        return CalendarTime.local(Double(row.lastScan)).minuteText
    }
}
