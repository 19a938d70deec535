import Foundation
import Testing
import TestSupport

/// An M4B audiobook's chapters through the daemon (null output, a private bus): MPRIS shows the
/// chapter heard as the title and the book as the album, and changes them as playing goes into
/// the next chapter; `cloudplayerctl chapter` jumps to chapter starts, `chapters` and `status`
/// list them; the book resumes where it was left, as long tracks do.
@Suite(.timeLimit(.minutes(4))) struct ChapterPlaybackTests {
    /// A daemon where long tracks resume where they were left from 10 s on.
    private static func startRig() async throws -> DaemonRig {
        try await DaemonRig.start(config: "[playback]\nresume_longer_than = \"10s\"\n")
    }

    /// A still of `color` as a JPEG, made by ffmpeg.
    private static func still(_ color: String) async throws -> URL {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("\(color).jpg")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=\(color):s=16x16",
                                                "-frames:v", "1", file.path])
        return file
    }

    /// The picture MPRIS shows once it is a local file with these bytes.
    private static func waitForArt(_ rig: DaemonRig, _ picture: URL) async throws -> Bool {
        let bytes = try Data(contentsOf: picture)
        return try await eventually(within: 20) {
            let art = try await rig.metadata("mpris:artUrl")
            return URL(string: art).flatMap { try? Data(contentsOf: $0) } == bytes
        }
    }

    @Test("chapters: MPRIS title, album and picture follow the chapter heard; chapter N/prev/next land on starts; listed by status and chapters; resumed")
    func chaptersThroughTheDaemon() async throws {
        let pictures = [try await Self.still("red"), try await Fixtures.shared.url(.coverArt), try await Self.still("blue")]
        let book = try await AudiobookFixture.make(chapters: [(0, "Opening"), (3, "Middle"), (60, "The End")], length: 120,
                                                   pictures: pictures)
        // A minute long: still playing when the test asks a chapter of it, however loaded the
        // machine (a three-second song had ended first, and "nothing is playing" was the answer).
        let song = try Fixtures.shared.scratchDirectory().appendingPathComponent("after.mp3")
        try Data(LibraryTree.id3v2(title: "Vbr Title", artist: "Some Artist", album: "Some Album", track: 3)
                 + (try Data(contentsOf: try await Fixtures.shared.url(.longCBRMP3)))).write(to: song)
        let rig = try await Self.startRig()
        defer { Task { await rig.stop() } }
        #expect(try await rig.ctl("queue", "add", book.path, song.path).status == 0)
        #expect(try await rig.ctl("queue", "play", "1").status == 0)

        // The first chapter (unless a busy machine let the second begin before the first look),
        // then the second as playing reaches it (57 s long: a slow look cannot miss it).
        #expect(try await eventually(within: 20) { ["Opening", "Middle"].contains(try await rig.metadata("title")) })
        #expect(try await rig.metadata("album") == "The Book")
        #expect(try await rig.waitForTitle("Middle"), "the title follows the chapter heard")
        // Its picture (a QuickTime chapter picture track's PNG) is the cover while it plays.
        #expect(try await Self.waitForArt(rig, pictures[1]), "the picture follows the chapter heard")

        // Paused (so the clock cannot move between the steps): a jump by number lands on the
        // chapter's start; back within 3 s of a start goes to the chapter before; later, to its own start.
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Paused" })
        #expect(try await rig.ctl("chapter", "3").status == 0)
        #expect(try await rig.waitForTitle("The End"))
        #expect(try await rig.status()["position"] as? Double == 60, "a jump lands on the chapter's start")
        #expect(try await Self.waitForArt(rig, pictures[2]))
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
        // The book as decoded: ffmpeg's mono tone at 64 kbit/s (a tone takes fewer bits than asked for).
        let bitrate = try #require(json["bitrate"] as? Int, "\(json)")
        #expect((16...72).contains(bitrate), "\(bitrate) kbit/s")
        #expect(status.contains("\nAAC · 44.1 kHz · 16 bit · mono · \(bitrate) kbit/s\n"), "\(status)")
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
        #expect(try await eventually(within: 20) { try await rig.metadata("mpris:artUrl").isEmpty },
                "the next track has no picture: the book's last chapter's is not kept")
        let none = try await rig.ctl("chapter", "next")
        #expect(none.status != 0 && none.stderr.contains("the track playing has no chapters"), "\(none.stderr)")
    }

    @Test("an MP3 podcast's ID3 CHAP chapters: listed, shown as the title (a chapter's picture as the cover), jumped to; sleep chapter pauses where the next starts, or stops after the last")
    func id3ChaptersAndSleep() async throws {
        let picture = try Data(contentsOf: try await Fixtures.shared.url(.coverArt))
        let episode = try await Tagger.copy(try await Fixtures.shared.url(.longMP3), to: try Fixtures.shared.scratchDirectory(),
                                            named: "episode.mp3",
                                            chapters: [Tagger.ID3Chapter("c1", start: 0, end: 3000, title: "Cold open"),
                                                       Tagger.ID3Chapter("c2", start: 3000, end: 8000, title: "Interview", picture: picture),
                                                       Tagger.ID3Chapter("c3", start: 8000, end: 60_000, title: "Outro")],
                                            listed: ["c1", "c2", "c3"])
        var rig = try await Self.startRig()
        defer { Task { [rig] in await rig.stop() } }
        #expect(try await rig.ctl("queue", "add", episode.path).status == 0)
        #expect(try await rig.ctl("queue", "play", "1").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Playing" })
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Paused" })
        #expect(try await rig.ctl("seek", "0").status == 0)
        #expect(try await rig.waitForTitle("Cold open"))
        #expect(try await rig.ctl("chapters").stdout == "▶ 1  0:00  Cold open\n  2  0:03  Interview\n  3  0:08  Outro\n")

        // Set while paused in the first chapter, and kept across a restart (set again once the
        // track is back in place, before its chapters are known); playing on, it pauses at the
        // second's start.
        #expect(try await rig.ctl("sleep", "chapter").status == 0)
        #expect(try await rig.ctl("sleep").stdout == "pauses at the end of the chapter\n")
        rig = try await rig.restarted()
        #expect(try await eventually(within: 20) { try await rig.ctl("sleep").stdout == "pauses at the end of the chapter\n" })
        #expect(try await rig.status()["status"] as? String == "Paused")
        #expect(try await rig.ctl("play").status == 0)
        #expect(try await rig.waitForTitle("Interview"))
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Paused" })
        let paused = try await rig.status()
        #expect(paused["position"] as? Double == 3, "paused at the chapter's start: \(paused)")
        // The chapter's own picture (an APIC in its CHAP frame) is MPRIS's cover while it plays.
        #expect(try await eventually(within: 20) { try await rig.metadata("mpris:artUrl").hasPrefix("file://") })
        let art = try await rig.metadata("mpris:artUrl")
        #expect(try URL(string: art).map { try Data(contentsOf: $0) } == picture, "\(art)")
        #expect(paused["sleep_at_chapter_end"] == nil, "the timer is spent")

        // A jump lands on the chapter's start; in the last chapter, sleep chapter is stop-after.
        #expect(try await rig.ctl("chapter", "3").status == 0)
        #expect(try await rig.waitForTitle("Outro"))
        #expect(try await rig.status()["position"] as? Double == 8)
        #expect(try await rig.ctl("sleep", "chapter").status == 0)
        let last = try await rig.status()
        #expect(last["stop_after"] as? Bool == true && last["sleep_at_chapter_end"] == nil, "\(last)")
    }
}
