import ArgumentParser
import DBus
import Foundation
import TestSupport

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

    @Option(help: ArgumentHelp("Instead of timing: send this many random and malformed calls (see BusFuzzer).", valueName: "calls"))
    var fuzz: Int?

    @Option(help: "The fuzzer's seed.")
    var seed: UInt64 = 1

    @Option(parsing: .upToNextOption, help: "Instead of timing MPRIS: time Manager1 Search calls with these queries, in turn.")
    var search: [String] = []

    func run() async throws {
        let client = try BusClient(address: address)
        if !search.isEmpty {
            var times: [UInt64] = []
            var found = 0
            for index in 0..<count {
                let start = DispatchTime.now().uptimeNanoseconds
                let answer = try await client.call(destination: destination, path: "/org/cloudplayerd/Manager1",
                                                   interface: "org.cloudplayerd.Manager1", member: "Search",
                                                   arguments: [.string(search[index % search.count]), .uint32(50)])
                times.append(DispatchTime.now().uptimeNanoseconds - start)
                found += answer.first?.elements.count ?? 0
            }
            func percentile(_ p: Double, of times: [UInt64]) -> Double {
                let sorted = times.sorted()
                return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1e6
            }
            print(String(format: "search %.2f %.2f ms (p50 p99 of %d calls, %.1f results each)", percentile(0.5, of: times),
                         percentile(0.99, of: times), count, Double(found) / Double(count)))
            for (which, query) in search.enumerated() {
                let own = stride(from: which, to: times.count, by: search.count).map { times[$0] }
                print(String(format: "  %-16@ p50 %6.2f  p99 %6.2f ms", "\"\(query)\"" as NSString,
                             percentile(0.5, of: own), percentile(0.99, of: own)))
            }
            await client.close()
            return
        }
        if let fuzz {
            var fuzzer = BusFuzzer(generator: MutationGenerator(seed: seed))
            var replies = 0, errors = 0, timeouts = 0, unsendable = 0
            for _ in 0..<fuzz {
                let call = fuzzer.nextCall()
                do {
                    _ = try await client.call(destination: destination, path: call.path, interface: call.interface,
                                              member: call.member, arguments: call.arguments, timeoutSeconds: 30)
                    replies += 1
                } catch is BusError {
                    unsendable += 1  // refused by our own sd-bus before sending (an empty member name, say)
                } catch let error as BusCallError {
                    if error.name == "org.freedesktop.DBus.Error.Timeout" || error.name == "org.freedesktop.DBus.Error.NoReply" {
                        timeouts += 1
                    } else {
                        errors += 1
                    }
                }
            }
            print("fuzz: \(fuzz) calls, \(replies) replies, \(errors) error replies, \(timeouts) unanswered, \(unsendable) not sendable")
            await client.close()
            if timeouts > 0 { throw ExitCode(1) }
            return
        }
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
