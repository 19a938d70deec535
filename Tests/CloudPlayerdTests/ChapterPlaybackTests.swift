import Foundation
import Testing
import TestSupport

/// An M4B audiobook's chapters through the daemon (null output, a private bus): MPRIS shows the
/// chapter heard as the title and the book as the album, and changes them as playing goes into
/// the next chapter; `cloudplayerctl chapter` jumps to chapter starts, `chapters` and `status`
/// list them; the book resumes where it was left, as long tracks do.
@Suite(.timeLimit(.minutes(4))) struct ChapterPlaybackTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    private struct Rig {
        let bus: DBusTestBus
        let daemon: ChildProcess

        static func start() async throws -> Rig {
            let bus = try await DBusTestBus()
            let home = try Fixtures.shared.scratchDirectory()
            let config = home.appendingPathComponent("config.toml")
            try "[playback]\nresume_longer_than = \"10s\"\n".write(to: config, atomically: true, encoding: .utf8)
            let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                          environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
            #expect(try await bus.waitForName(ChapterPlaybackTests.name))
            return Rig(bus: bus, daemon: daemon)
        }

        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }

        func status() async throws -> [String: Any] {
            let result = try await ctl("status", "--json")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }

        func metadata(_ key: String) async throws -> String {
            try await bus.run("playerctl", ["-p", "cloudplayerd", "metadata", key]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Waits (20 s at most) until MPRIS's title is `title`.
        func waitForTitle(_ title: String) async throws -> Bool {
            try await eventually(within: 20) { try await metadata("title") == title }
        }

        func stop() async {
            daemon.signal(SIGTERM)
            _ = await daemon.wait()
            await bus.stop()
        }
    }

    @Test("chapters: MPRIS title and album follow the chapter heard; chapter N/prev/next land on starts; listed by status and chapters; resumed")
    func chaptersThroughTheDaemon() async throws {
        let book = try await AudiobookFixture.make(chapters: [(0, "Opening"), (3, "Middle"), (60, "The End")], length: 120)
        let song = try await Fixtures.shared.url(.vbrMP3)
        let rig = try await Rig.start()
        defer { Task { await rig.stop() } }
        #expect(try await rig.ctl("queue", "add", book.path, song.path).status == 0)
        #expect(try await rig.ctl("queue", "play", "1").status == 0)

        // The first chapter (unless a busy machine let the second begin before the first look),
        // then the second as playing reaches it (57 s long: a slow look cannot miss it).
        #expect(try await eventually(within: 20) { ["Opening", "Middle"].contains(try await rig.metadata("title")) })
        #expect(try await rig.metadata("album") == "The Book")
        #expect(try await rig.waitForTitle("Middle"), "the title follows the chapter heard")

        // Paused (so the clock cannot move between the steps): a jump by number lands on the
        // chapter's start; back within 3 s of a start goes to the chapter before; later, to its own start.
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Paused" })
        #expect(try await rig.ctl("chapter", "3").status == 0)
        #expect(try await rig.waitForTitle("The End"))
        #expect(try await rig.status()["position"] as? Double == 60, "a jump lands on the chapter's start")
        #expect(try await rig.ctl("chapter", "prev").status == 0)
        #expect(try await rig.waitForTitle("Middle"))
        #expect(try await rig.status()["position"] as? Double == 3)
        #expect(try await rig.ctl("seek", "10").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["position"] as? Double == 10 })
        #expect(try await rig.ctl("chapter", "prev").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["position"] as? Double == 3 }, "back to this chapter's start")
        #expect(try await rig.metadata("title") == "Middle")

        let listed = try await rig.ctl("chapters").stdout
        #expect(listed == "  1  0:00  Opening\n▶ 2  0:03  Middle\n  3  1:00  The End\n", "\(listed)")
        let status = try await rig.ctl("status").stdout
        #expect(status.contains("chapter 2/3: Middle\n"), "\(status)")
        let json = try await rig.status()
        #expect((json["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Opening", "Middle", "The End"])
        #expect(json["chapter"] as? Int == 1)
        let refused = try await rig.ctl("chapter", "9")
        #expect(refused.status != 0 && refused.stderr.contains("there is no chapter 9: the track has 3"), "\(refused.stderr)")

        // Left at 80 s (not in its last 30 s: not heard to its end), the book starts again there,
        // less the 5 s back-off, in its last chapter.
        #expect(try await rig.ctl("seek", "80").status == 0)
        #expect(try await rig.ctl("stop").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Stopped" })
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Playing" })
        let resumed = try await rig.status()["position"] as? Double ?? 0
        #expect(resumed >= 75 && resumed < 80, "resumed at \(resumed)")
        #expect(try await rig.waitForTitle("The End"))

        // Next from the last chapter: the next track, which has none.
        #expect(try await rig.ctl("chapter", "next").status == 0)
        #expect(try await rig.waitForTitle("Vbr Title"))
        #expect(try await rig.status()["chapters"] == nil)
        let none = try await rig.ctl("chapter", "next")
        #expect(none.status != 0 && none.stderr.contains("the track playing has no chapters"), "\(none.stderr)")
    }
}
