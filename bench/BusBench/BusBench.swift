import ArgumentParser
import CloudPlayerCore
import Foundation

/// Times MPRIS method calls against a media player on the bus, one after another, and prints
/// one line per kind of call: `NAME p50-µs p99-µs calls-per-second`. bench/bus runs it against
/// cloudplayerd and against mpv with mpv-mpris; the tests use it as a misbehaving client.
@main
struct BusBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cloudplayerd-busbench")

    @Option(help: "The bus (default: the session bus).")
    var address: String?

    @Option(help: "The player's bus name.")
    var destination = "org.mpris.MediaPlayer2.cloudplayerd"

    @Option(help: "Calls of each kind.")
    var count = 10_000

    func run() async throws {
        let client = try BusClient(address: address)
        let path = "/org/mpris/MediaPlayer2"
        let kinds: [(String, String, String, [String])] = [
            ("get-position", "org.freedesktop.DBus.Properties", "Get", ["org.mpris.MediaPlayer2.Player", "Position"]),
            ("play-pause", "org.mpris.MediaPlayer2.Player", "PlayPause", []),
        ]
        for (name, interface, member, arguments) in kinds {
            let times = try await client.roundTrips(count: count, destination: destination, path: path,
                                                    interface: interface, member: member, arguments: arguments)
            let sorted = times.sorted()
            func percentile(_ p: Double) -> Double { Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000 }
            let total = Double(times.reduce(0, +)) / 1e9
            print(String(format: "%@ %.1f %.1f %.0f", name, percentile(0.5), percentile(0.99), Double(times.count) / total))
        }
        await client.close()
    }
}
