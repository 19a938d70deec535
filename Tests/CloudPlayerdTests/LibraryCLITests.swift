import Foundation
import Testing
import TestSupport

/// `cloudplayerctl` driven as a user would, against a real daemon on a private bus, with a real
/// WebDAV server (rclone) holding a generated library, a playlist file and a podcast feed.
@Suite(.timeLimit(.minutes(6)))
struct LibraryCLITests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    /// A WebDAV server with 3 artists × 2 albums × 3 tracks, `mix.m3u` and `feed.xml`, a config
    /// naming it twice (as WebDAV and as a feed), and a daemon on a private bus.
    struct Rig {
        let server: WebDAVTestServer
        let bus: DBusTestBus
        let config: URL
        let cacheHome: URL
        let daemon: ChildProcess

        static func start() async throws -> Rig {
            let server = try await WebDAVTestServer()
            let audio = try await LibraryTree.audio().bytes
            _ = try LibraryTree.write(into: server.root, artists: 3, albums: 2, tracks: 3, audio: audio)
            try Data("#EXTM3U\n#EXTINF:1,First\nArtist 01/Album 2/01 Song A01 B2 T01.mp3\nArtist 03/Album 2/03 Song A03 B2 T03.mp3\n".utf8)
                .write(to: server.root.appendingPathComponent("mix.m3u"))
            let base = server.baseURL.absoluteString
            try Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Test Cast</title>
                <item><title>Older Episode</title><pubDate>Mon, 02 Nov 2026 10:00:00 +0000</pubDate>
                <enclosure url="\(base)Artist%2001/Album%202/01%20Song%20A01%20B2%20T01.mp3" type="audio/mpeg" length="1000"/></item>
                <item><title>Newest Episode</title><pubDate>Fri, 20 Nov 2026 10:00:00 +0000</pubDate>
                <enclosure url="\(base)Artist%2002/Album%202/01%20Song%20A02%20B2%20T01.mp3" type="audio/mpeg" length="1000"/></item>
                </channel></rss>
                """.utf8).write(to: server.root.appendingPathComponent("feed.xml"))
            let directory = try Fixtures.shared.scratchDirectory()
            let config = directory.appendingPathComponent("config.toml")
            try Data("""
                [[source]]
                name = "dav"
                type = "webdav"
                url = "\(base)"
                username = "\(server.username)"
                password = "\(server.password)"

                [[source]]
                name = "pod"
                type = "feed"
                url = "\(base)feed.xml"
                username = "\(server.username)"
                password = "\(server.password)"
                """.utf8).write(to: config)
            let bus = try await DBusTestBus()
            let cacheHome = directory.appendingPathComponent("cache")
            let daemon = try Self.daemon(bus: bus, config: config, cacheHome: cacheHome)
            #expect(try await bus.waitForName(LibraryCLITests.name))
            return Rig(server: server, bus: bus, config: config, cacheHome: cacheHome, daemon: daemon)
        }

        static func daemon(bus: DBusTestBus, config: URL, cacheHome: URL) throws -> ChildProcess {
            try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                             environment: bus.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 })
        }

        /// Runs `cloudplayerctl ARGUMENTS…`.
        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }

        /// `cloudplayerctl ARGUMENTS… --json`, parsed; the command must succeed.
        func json(_ arguments: String...) async throws -> Any {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
        }

        func rows(_ arguments: String...) async throws -> [[String: Any]] {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        }

        func status() async throws -> [String: Any] {
            try await json("status") as? [String: Any] ?? [:]
        }

        /// Stops the daemon and the bus; returns what the daemon printed.
        func stop() async -> ProcessResult {
            daemon.signal(SIGTERM)
            let output = await daemon.wait()
            await bus.stop()
            return output
        }
    }

    @Test("scan, ls, search, playlists (folders, a playlist file, a feed newest first, your own), queue, sources, cache — and no password in any answer")
    func tour() async throws {
        let rig = try await Rig.start()
        let scan = try await rig.ctl("scan")
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("dav: 10 folders, 18 tracks (18 read"), "\(scan.stdout)")
        #expect(scan.stdout.contains("pod: 0 folders, 2 tracks"), "\(scan.stdout)")
        // Into a pipe the scan writes no progress: a line written then is out of date when it is
        // read (read after status's output, it passed for the state of a scan long finished).
        #expect(scan.stderr.isEmpty, "\(scan.stderr)")
        // status as people read it: a line each, the library's last; the loop mode in words.
        let shown = try await rig.ctl("status")
        #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 4 && lines[3].isEmpty, "three lines, each ended: \(shown.stdout)")
        #expect(lines.first == "Stopped" && lines[1].contains(" · loop off · "), "\(shown.stdout)")
        #expect(lines[2].hasPrefix("library: 18 tracks · ") && lines[2].hasSuffix(" playlists"), "\(shown.stdout)")

        let artist2 = try await rig.rows("ls", "--artist", "Artist 02")
        #expect(artist2.count == 6)
        #expect(artist2.allSatisfy { ($0["artist"] as? String) == "Artist 02" && ($0["duration"] as? Double ?? 0) > 0.9 })
        let found = try await rig.rows("search", "song", "t03")
        #expect(found.count == 6 + 0)
        // Nothing found is said, not an empty answer.
        let none = try await rig.ctl("search", "zzzz")
        #expect(none.status == 0 && none.stdout == "no track matches \u{201C}zzzz\u{201D}\n", "\(none.stdout)")
        let table = try await rig.ctl("ls", "--album", "Album 2")
        let rows: [Substring] = table.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("ID  TITLE") == true)
        #expect(rows.count == 1 + 9)

        let playlists = try await rig.rows("playlist", "ls")
        #expect(playlists.filter { $0["kind"] as? String == "folder" }.count == 6)
        let mix = try #require(playlists.first { $0["kind"] as? String == "file" })
        #expect(mix["name"] as? String == "mix" && mix["tracks"] as? Int == 2)
        let feed = try #require(playlists.first { $0["kind"] as? String == "feed" })
        #expect(feed["name"] as? String == "Test Cast")
        let episodes = try await rig.rows("playlist", "ls", "\(feed["id"] as? Int ?? 0)")
        #expect(episodes.map { $0["title"] as? String } == ["Newest Episode", "Older Episode"])
        #expect(episodes.map { $0["source"] as? String } == ["dav", "dav"], "episodes that are files of a source stay that source's tracks")

        // MPRIS Playlists offers them, by name; activating one replaces the queue and plays it.
        let mprisPlaylists = try await rig.bus.run("busctl", ["--address=\(rig.bus.address)", "call", Self.name, "/org/mpris/MediaPlayer2",
                                                              "org.mpris.MediaPlayer2.Playlists", "GetPlaylists", "uusb", "0", "100", "Alphabetical", "false"])
        #expect(mprisPlaylists.stdout.hasPrefix("a(oss) \(playlists.count) "), "\(mprisPlaylists.stdout)")
        #expect(mprisPlaylists.stdout.contains("\"/org/cloudplayerd/playlist/\(feed["id"] as? Int ?? 0)\" \"Test Cast\""))
        _ = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "loop", "Playlist"])  // one-second tracks must not run out
        #expect(try await eventually { try await rig.ctl("status").stdout.contains(" · loop playlist · ") })
        let activated = try await rig.bus.run("busctl", ["--address=\(rig.bus.address)", "call", Self.name, "/org/mpris/MediaPlayer2",
                                                         "org.mpris.MediaPlayer2.Playlists", "ActivatePlaylist", "o",
                                                         "/org/cloudplayerd/playlist/\(feed["id"] as? Int ?? 0)"])
        #expect(activated.status == 0, "\(activated.stderr)")
        var playing = ""
        #expect(try await eventually {
            playing = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "metadata", "xesam:url"]).stdout
            return playing.contains("A02%20B2%20T01")
        }, "the newest episode plays first: \(playing)")
        #expect(try await rig.rows("queue", "ls").count == 2)
        func activePlaylist() async throws -> String {
            try await rig.bus.run("busctl", ["--address=\(rig.bus.address)", "get-property", Self.name, "/org/mpris/MediaPlayer2",
                                             "org.mpris.MediaPlayer2.Playlists", "ActivePlaylist"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try await activePlaylist() == "(b(oss)) true \"/org/cloudplayerd/playlist/\(feed["id"] as? Int ?? 0)\" \"Test Cast\" \"\"")

        // Your own playlist: create, add, remove, play.
        let ids = try await rig.rows("ls", "--artist", "Artist 03").compactMap { $0["id"] as? Int }
        #expect(try await rig.ctl("playlist", "create", "Favs").status == 0)
        #expect(try await rig.ctl("playlist", "create", "Favs").stderr.contains("already have a playlist named 'Favs'"))
        #expect(try await rig.ctl("playlist", "add", "Favs", String(ids[0]), String(ids[1]), String(ids[2])).status == 0)
        #expect(try await rig.json("playlist", "remove", "Favs", String(ids[1])) as? Int == 1)
        #expect(try await rig.rows("playlist", "ls", "Favs").compactMap { $0["id"] as? Int } == [ids[0], ids[2]])
        #expect(try await rig.ctl("playlist", "add", "mix", String(ids[0])).stderr.contains("not one of your own playlists"))
        #expect(try await rig.ctl("playlist", "play", "Favs").status == 0)
        #expect(try await eventually { try await rig.status()["status"] as? String == "Playing" })
        #expect(try await rig.rows("queue", "ls").count == 2)
        // Played through Manager1 too, it is MPRIS's active playlist (once MPRIS has read the new one).
        let favs = try #require(try await rig.rows("playlist", "ls").first { $0["name"] as? String == "Favs" }?["id"] as? Int)
        #expect(try await eventually { try await activePlaylist() == "(b(oss)) true \"/org/cloudplayerd/playlist/\(favs)\" \"Favs\" \"\"" })

        // The queue.
        #expect(try await rig.json("queue", "add", String(ids[3]), String(ids[4])) as? Int == 2)
        let queue = try await rig.rows("queue", "ls")
        // Favs' first track, or its second if the first (1 s) already ended.
        #expect(queue.count == 4 && queue.prefix(2).contains { $0["current"] as? Bool == true })
        #expect(try await rig.ctl("queue", "play", "4").status == 0)
        #expect(try await eventually { (try await rig.rows("queue", "ls")).last?["current"] as? Bool == true })
        #expect(try await rig.ctl("queue", "play", "9").stderr.contains("there is no entry 9"))
        #expect(try await rig.ctl("queue", "clear").status == 0)
        #expect(try await rig.status()["queue_length"] as? Int == 0)
        #expect(try await eventually { try await activePlaylist() == "(b(oss)) false \"/\" \"\" \"\"" })

        // Sources and the cache.
        let sources = try await rig.rows("sources")
        #expect(sources.map { $0["name"] as? String } == ["dav", "pod"])
        #expect(sources.first?["tracks"] as? Int == 18)
        let stats = try await rig.json("cache", "stats") as? [String: Any] ?? [:]
        #expect(stats["entries"] as? Int ?? 0 >= 18, "the scan's heads are in the cache")
        #expect(try await rig.ctl("cache", "pin", "mix").status == 0)
        let mixTracks = try await rig.rows("playlist", "ls", "mix").compactMap { $0["id"] as? Int }
        for id in mixTracks {
            #expect(try await eventually {
                let shown = try await rig.json("cache", "show", String(id)) as? [String: Any] ?? [:]
                return shown["cached"] as? Int == shown["length"] as? Int
            }, "track \(id) of a pinned playlist is downloaded whole")
        }
        let bar = try await rig.ctl("cache", "show", String(mixTracks[0]))
        #expect(bar.stdout.contains(String(repeating: "█", count: 64)) && bar.stdout.contains("(100%)"), "\(bar.stdout)")
        // A track no step here played (one that did may still be open, and what is read is kept).
        let untouched = try #require(try await rig.rows("ls").compactMap { $0["id"] as? Int }
            .first { !mixTracks.contains($0) && !ids.prefix(5).contains($0) })
        let scanned = try await rig.json("cache", "show", String(untouched)) as? [String: Any] ?? [:]
        #expect(scanned["cached"] as? Int ?? 0 > 0, "the scan left its head in the cache")
        #expect(try await rig.ctl("cache", "clear").status == 0)
        let kept = try await rig.json("cache", "show", String(mixTracks[0])) as? [String: Any] ?? [:]
        #expect(kept["cached"] as? Int == kept["length"] as? Int, "pinned bytes survive cache clear")
        let unpinned = try await rig.json("cache", "show", String(untouched)) as? [String: Any] ?? [:]
        #expect(unpinned["cached"] as? Int == 0, "the rest is gone")

        // The password is in no answer, no state file, no library, no log line.
        var everything = ""
        for arguments in [["status"], ["ls"], ["search", "song"], ["playlist", "ls"], ["queue", "ls"], ["sources"], ["cache", "stats"]] {
            everything += try await rig.bus.run(BuiltProducts.cloudplayerctl, arguments + ["--json"]).stdout
        }
        let daemonOutput = await rig.stop()
        everything += daemonOutput.stdout + daemonOutput.stderr
        #expect(daemonOutput.stderr.contains("scan finished"), "the trace log was captured")
        for file in try FileManager.default.subpathsOfDirectory(atPath: rig.bus.dataHome.path) {
            everything += String(decoding: (try? Data(contentsOf: rig.bus.dataHome.appendingPathComponent(file))) ?? Data(), as: UTF8.self)
        }
        let basic = Data("\(rig.server.username):\(rig.server.password)".utf8).base64EncodedString()
        #expect(!everything.contains(rig.server.password))
        #expect(!everything.contains(basic))
    }

    @Test("play, pause, toggle, seek, forward, back, volume, next, prev and stop from cloudplayerctl, as MPRIS then shows; nonsense is refused")
    func controls() async throws {
        let bus = try await DBusTestBus()
        let home = try Fixtures.shared.scratchDirectory()
        let config = home.appendingPathComponent("config.toml")
        try Data().write(to: config)
        let daemon = try Rig.daemon(bus: bus, config: config, cacheHome: home)
        #expect(try await bus.waitForName(Self.name))
        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }
        func status() async throws -> [String: Any] {
            let result = try await ctl("status", "--json")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }
        func mpris(_ property: String) async throws -> String {
            try await bus.run("playerctl", ["-p", "cloudplayerd", property]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let long = try await Fixtures.shared.url(.longMP3), other = try await Fixtures.shared.url(.vbrMP3)
        #expect(try await ctl("queue", "add", long.path, other.path, "--play").status == 0)
        #expect(try await eventually { try await mpris("status") == "Playing" })

        #expect(try await ctl("pause").status == 0)
        #expect(try await mpris("status") == "Paused")
        // Paused, the place stands still: each jump lands exactly.
        #expect(try await ctl("seek", "0:30").status == 0)
        #expect(try await status()["position"] as? Double == 30)
        // Past the end (the track lasts a minute): refused, saying so; the place kept.
        let past = try await ctl("seek", "5:00")
        #expect(past.status == 1 && past.stderr.contains("5:00 is past the end of the track (1:00)"), "\(past.stderr)")
        #expect(try await status()["position"] as? Double == 30)
        #expect(try await ctl("forward", "15").status == 0)
        #expect(try await status()["position"] as? Double == 45)
        #expect(try await ctl("back").status == 0)
        #expect(try await status()["position"] as? Double == 35)
        #expect(try await ctl("volume", "50%").status == 0)
        #expect(try await mpris("volume") == "0.500000")
        #expect(try await ctl("toggle").status == 0)
        #expect(try await mpris("status") == "Playing")
        #expect(try await ctl("next").status == 0)
        #expect(try await eventually { try await status()["url"] as? String == other.absoluteString })
        #expect(try await ctl("prev").status == 0)
        #expect(try await eventually { try await status()["url"] as? String == long.absoluteString })
        #expect(try await ctl("stop").status == 0)
        #expect(try await mpris("status") == "Stopped")

        // Refused before the daemon is asked (a usage error), or by the daemon (exit 1, why).
        for arguments in [["volume", "loud"], ["seek", "1:75"], ["forward", "soon"]] {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, arguments)
            #expect(result.status != 0 && result.stderr.contains(arguments[1]), "\(arguments): \(result.stderr)")
        }
        let tooLoud = try await ctl("volume", "300%")
        #expect(tooLoud.status == 1 && tooLoud.stderr.hasSuffix(": the volume goes from 0% to 150% (0 to 1.5)\n"), "\(tooLoud.stderr)")
        let unknown = try await bus.run("busctl", ["--user", "call", Self.name, "/org/cloudplayerd/Manager1", "org.cloudplayerd.Manager1",
                                                   "Control", "sd", "dance", "1"])
        #expect(unknown.status != 0 && unknown.stderr.contains("not a control"), "\(unknown.stderr)")
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        await bus.stop()
    }

    @Test("a long track starts again 5 s before where it was left (MPRIS says so with Seeked), is played once heard to its last 30 s, and can be marked")
    func longTracksRememberTheirPlace() async throws {
        let bus = try await DBusTestBus()
        let home = try Fixtures.shared.scratchDirectory()
        let music = home.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try await Fixtures.shared.url(.longMP3), to: music.appendingPathComponent("episode.mp3"))
        let config = home.appendingPathComponent("config.toml")
        try Data("[playback]\nresume_longer_than = \"30s\"\n\n[[source]]\nname = \"home\"\ntype = \"local\"\npath = \"\(music.path)\"\n".utf8)
            .write(to: config)
        let daemon = try Rig.daemon(bus: bus, config: config, cacheHome: home)
        #expect(try await bus.waitForName(Self.name))
        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }
        func json(_ arguments: String...) async throws -> Any {
            try JSONSerialization.jsonObject(with: Data(try await bus.run(BuiltProducts.cloudplayerctl, arguments + ["--json"]).stdout.utf8),
                                             options: [.fragmentsAllowed])
        }
        func track() async throws -> [String: Any] {
            (try await json("ls") as? [[String: Any]])?.first ?? [:]
        }
        #expect(try await ctl("scan", "home").status == 0)
        let id = try #require(try await track()["id"] as? Int64).description
        let monitor = try ChildProcess("gdbus", ["monitor", "--session", "--dest", Self.name], environment: bus.environment)
        defer { monitor.signal(SIGTERM) }

        #expect(try await ctl("queue", "add", id, "--play").status == 0)
        #expect(try await eventually { (try await json("status") as? [String: Any])?["position"] as? Double ?? 0 >= 12 })
        #expect(try await ctl("pause").status == 0)
        let left = try #require((try await json("status") as? [String: Any])?["position"] as? Double)
        #expect(try await eventually { try await track()["resume_at"] as? Double == left })
        #expect(!monitor.outputSoFar().contains("Seeked"))

        // Queued again from the library, it starts 5 s before, and says so.
        #expect(try await ctl("queue", "clear").status == 0)
        #expect(try await ctl("queue", "add", id, "--play").status == 0)
        // Where it started is what the Seeked signal says; the status read after it has played on
        // for as long as a busy machine took to answer, so it only bounds the start from below.
        let resumed = try #require((try await json("status") as? [String: Any])?["position"] as? Double)
        #expect(resumed >= left - 5, "left at \(left), status says \(resumed)")
        #expect(try await eventually { monitor.outputSoFar().contains("Seeked") }, "\(monitor.outputSoFar())")
        let seeked = monitor.outputSoFar().firstMatch(of: /Player\.Seeked \(int64 (\d+),\)/).flatMap { Double($0.1) }.map { $0 / 1_000_000 }
        #expect(seeked.map { abs($0 - (left - 5)) < 0.1 } == true, "left at \(left), Seeked to \(seeked.map(String.init(describing:)) ?? "nothing")")
        let table = try await ctl("ls", "--source", "home")
        #expect(table.stdout.contains("PROGRESS") && table.stdout.contains(" / 1:00"), "\(table.stdout)")

        // Heard to within its last 30 s: played, and played again from its start.
        #expect(try await ctl("seek", "45").status == 0)
        #expect(try await ctl("stop").status == 0)
        #expect(try await eventually { try await track()["played"] as? Bool == true })
        #expect(try await track()["resume_at"] == nil)
        #expect(try await ctl("ls", "--source", "home").stdout.contains("played"))
        #expect(try await ctl("mark", "unplayed", id).status == 0)
        #expect(try await track()["played"] == nil)
        #expect(try await ctl("mark", "played", id).status == 0)
        #expect(try await track()["played"] as? Bool == true)
        let unknown = try await ctl("mark", "played", "987654")
        #expect(unknown.status == 1 && unknown.stderr.contains("987654"), "\(unknown.stderr)")
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        await bus.stop()
    }
}
