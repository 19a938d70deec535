import ArgumentParser
import DBus
import Manager1

struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "The download cache.",
        subcommands: [Stats.self, Show.self, Pin.self, Unpin.self, Clear.self], defaultSubcommand: Stats.self)

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "How much the cache holds.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let (stats, raw) = try await Daemon.call(options, Manager1.cacheStats)
            if options.json { return say(raw.json) }
            say("\(Int(stats.entries).counted("file")), \(Formatting.bytes(stats.bytes)) of \(Formatting.bytes(stats.limit)) in \(stats.directory)")
            say("kept (in use or pinned): \(Int(stats.pinnedEntries).counted("file")), \(Formatting.bytes(stats.pinnedBytes))")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Draws which byte ranges of a track are cached.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "A library track id, URL or file.") var track: String
        @Option(help: "Width of the bar in characters.") var width = 64

        func run() async throws {
            let (answer, raw) = try await Daemon.call(options, Manager1.cacheShow, trackReference(track))
            if options.json { return say(raw.json) }
            let length = answer.length
            guard length > 0 else { return say("\(answer.url): nothing cached") }
            let flat = answer.ranges
            let ranges = stride(from: 0, to: flat.count - 1, by: 2).map { flat[$0]..<flat[$0 + 1] }
            let cached = answer.cached
            say(answer.url)
            say(Self.bar(ranges, length: length, width: max(8, min(width, 400))))
            say("\(Formatting.bytes(cached)) of \(Formatting.bytes(length)) cached (\(Int(Double(cached) * 100 / Double(length)))%), "
                + ranges.count.counted("range"))
        }

        /// Each cell is 1/width of the file: full when all of it is cached, half when some is.
        static func bar(_ ranges: [Range<Int64>], length: Int64, width: Int) -> String {
            (0..<width).map { cell -> String in
                let start = length * Int64(cell) / Int64(width)
                let end = max(start + 1, length * Int64(cell + 1) / Int64(width))
                let covered = ranges.reduce(Int64(0)) { $0 + max(0, min($1.upperBound, end) - max($1.lowerBound, start)) }
                return covered >= end - start ? "█" : covered > 0 ? "▌" : "·"
            }.joined()
        }
    }

    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin", abstract: "Keeps a playlist fully downloaded for offline use; its bytes are never evicted.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.cachePin, playlist)
            if !options.json { say("pinned; its tracks are downloading in the background") }
        }
    }

    struct Unpin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unpin", abstract: "Lets a pinned playlist's bytes be evicted again.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The playlist's id or name.") var playlist: String

        func run() async throws {
            _ = try await Daemon.call(options, Manager1.cacheUnpin, playlist)
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Deletes every cached file not in use and not pinned.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let (freed, raw) = try await Daemon.call(options, Manager1.cacheClear)
            options.json ? say(raw.json) : say("freed \(Formatting.bytes(freed))")
        }
    }
}
