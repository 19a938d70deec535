import Foundation
import Testing
import TestSupport

/// The queue's limit — 20,000 tracks and 8 MiB of locations' text — through the real daemon on a
/// private bus: Manager1 `QueueAdd` and MPRIS `OpenUri`/`AddTrack` past it are refused with one
/// D-Bus error, and the queue stays as it was. (Before the limit, four `QueueAdd`s of 30,000 made
/// a queue of 120,000.)
@Suite(.timeLimit(.minutes(4)))
struct QueueLimitTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    static let full = "org.cloudplayerd.Error.QueueFull"

    @Test("QueueAdd, OpenUri and AddTrack past 20000 tracks or 8 MiB of locations are refused with QueueFull; the queue stays as it was")
    func queueLimit() async throws {
        let bus = try await DBusTestBus()
        let cacheHome = try Fixtures.shared.scratchDirectory()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        /// `QueueAdd` through busctl (one argument per track: no argument grows past the kernel's limit).
        func queueAdd(_ tracks: [String]) async throws -> ProcessResult {
            try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, "/org/cloudplayerd/Manager1",
                                         "org.cloudplayerd.Manager1", "QueueAdd", "asb", String(tracks.count)] + tracks + ["false"])
        }
        /// A method called through gdbus, which prints a refusal's error name.
        func gdbus(_ path: String, _ method: String, _ arguments: String...) async throws -> ProcessResult {
            try await bus.run("gdbus", ["call", "--address", bus.address, "--dest", Self.name, "--object-path", path,
                                        "--method", method] + arguments)
        }
        func queueLength() async throws -> Int? {
            let status = try await bus.run(BuiltProducts.cloudplayerctl, ["status", "--json"])
            let record = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            return record?["queue_length"] as? Int
        }

        // Four calls fill it to the limit in entries; a fifth one, and MPRIS, are refused.
        for batch in 0..<4 {
            let added = try await queueAdd((0..<5000).map { "file:///music/\(batch)/\($0).mp3" })
            #expect(added.status == 0 && added.stdout.hasPrefix("u 5000"), "\(added.stdout) \(added.stderr)")
        }
        #expect(try await queueLength() == 20000)
        let more = try await gdbus("/org/cloudplayerd/Manager1", "org.cloudplayerd.Manager1.QueueAdd", "['file:///music/more.mp3']", "true")
        #expect(more.status != 0 && more.stderr.contains(Self.full) && more.stderr.contains("the queue is full: it holds at most 20000 tracks"),
                "\(more.stdout) \(more.stderr)")
        let opened = try await gdbus("/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.OpenUri", "file:///music/more.mp3")
        #expect(opened.status != 0 && opened.stderr.contains(Self.full), "\(opened.stdout) \(opened.stderr)")
        let addedTrack = try await gdbus("/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.TrackList.AddTrack", "file:///music/more.mp3",
                                         "/org/mpris/MediaPlayer2/TrackList/NoTrack", "false")
        #expect(addedTrack.status != 0 && addedTrack.stderr.contains(Self.full), "\(addedTrack.stdout) \(addedTrack.stderr)")
        #expect(try await queueLength() == 20000)

        // Long locations: 75 of 100,000 bytes fit in 8 MiB, 90 do not.
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "clear"]).status == 0)
        for batch in 0..<6 {
            let long = (0..<15).map { "file:///music/\(batch)-\($0)/" + String(repeating: "x", count: 100_000) + ".mp3" }
            let added = try await queueAdd(long)
            if batch < 5 {
                #expect(added.status == 0, "\(added.stderr)")
            } else {
                #expect(added.status != 0 && added.stderr.contains("the queue is full: it holds at most 8 MiB of locations"), "\(added.stderr)")
            }
        }
        #expect(try await queueLength() == 75)
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        await bus.stop()
    }
}
