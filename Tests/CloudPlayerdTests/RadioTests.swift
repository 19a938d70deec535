import Foundation
import Testing
import TestSupport

/// Internet radio through the daemon (null output, a private bus): stations on the ICY test
/// station and on Icecast 2 fed by ffmpeg, ezstream and ices2; the song heard on MPRIS as it is
/// heard; the `radio` source and station lists; a station paused and resumed.
@Suite(.timeLimit(.minutes(4))) struct RadioTests {
    @Test("an ICY station: title and artist follow the song heard (not the title's arrival, 8 × ahead), the station as album; no seek, no length; one connection")
    func titlesAsHeard() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        var options = ICYStreamServer.Options()
        options.pace = .times(8)
        options.titles = [.init(at: 0, "Artist A - Song One"), .init(at: 160_000, "Artist B - Song Two")]  // 0 s and 10 s in
        let server = try await ICYStreamServer(file: file, options: options)
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        try await rig.open(server.url)
        #expect(try await rig.waitForTitle("Song One"))
        #expect(try await rig.metadata("artist") == "Artist A")
        #expect(try await rig.metadata("album") == "Test Radio")
        #expect(try await rig.metadata("mpris:length") == "")
        #expect(try await rig.property("CanSeek") == "b false")
        // The second title arrived 1.25 s into the audio; it is heard 10 s in. Each look reads
        // the position before and after the title: "Song Two" seen by position `after` shows it
        // was not early if `after` ≥ 9; "Song One" still seen at position `before` shows it was
        // late if `before` > 11. A loaded machine looks less often, which loses evidence, never
        // makes false evidence.
        var (lastOne, firstTwo) = (0.0, 0.0)
        let changed = try await eventually {
            let before = try await rig.status()["position"] as? Double ?? 0
            let title = try await rig.metadata("title")
            let after = try await rig.status()["position"] as? Double ?? 0
            if title == "Song One" { lastOne = max(lastOne, before) }
            firstTwo = after
            return title == "Song Two"
        }
        #expect(changed, "the title never became Song Two")
        #expect(firstTwo >= 9, "Song Two shown by \(firstTwo) s, before it was heard")
        #expect(lastOne <= 11, "Song One still shown at \(lastOne) s")
        #expect(try await rig.metadata("artist") == "Artist B")
        let status = try await rig.status()
        #expect(status["live"] as? Bool == true && status["song_title"] as? String == "Song Two" && status["song_artist"] as? String == "Artist B",
                "\(status)")
        #expect(try await rig.ctl("status").stdout.contains("now: Artist B – Song Two"))
        // OpenUri checks what it opens: the check's connection is the one that plays.
        let requests = try server.requests()
        #expect(requests.count == 1, "\(requests)")
    }

    @Test("Icecast 2: an MP3 mount fed by ffmpeg (titles set through the admin API) and by ezstream (each track's tags), an Ogg mount by ices2 (each link's comments)",
          arguments: ["ffmpeg", "ezstream", "ices2"])
    func icecast(_ sourceKind: String) async throws {
        let icecast = try await IcecastServer()
        let mount: String
        switch sourceKind {
        case "ffmpeg":
            let source = try await icecast.startFFmpegSource(playing: try await RadioFixtures.shared.url(.station))
            mount = source.mount
        case "ezstream":
            mount = try await icecast.startEzstream(playlist: try await RadioFixtures.shared.urls(RadioFixtures.mp3Songs)).mount
        default:
            mount = try await icecast.startIces(playlist: try await RadioFixtures.shared.urls(RadioFixtures.vorbisSongs)).mount
        }
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        try await rig.open(icecast.url(mount))
        if sourceKind == "ffmpeg" {
            try await icecast.updateTitle(mount, to: "Admin Artist - Admin Song")
            #expect(try await rig.waitForTitle("Admin Song"), "\(rig.daemon.errorSoFar())")
            #expect(try await rig.metadata("artist") == "Admin Artist")
            #expect(try await rig.metadata("album") == "FFmpeg Radio")
        } else {
            // The songs go by every 5 s: two of them in turn, each with its artist.
            var seen: Set<String> = []
            #expect(try await eventually(within: 40) {
                let title = try await rig.metadata("title"), artist = try await rig.metadata("artist")
                if let song = RadioFixtures.songs.first(where: { $0.title == title }), song.artist == artist { seen.insert(title) }
                return seen.count >= 2
            }, "titles seen: \(seen); \(rig.daemon.errorSoFar())")
        }
        #expect(try await rig.property("PlaybackStatus") == "s \"Playing\"")
        await icecast.stop()
    }

    @Test("a radio source: stations from the config and from a station list; a scan lists them as tracks and a playlist without connecting; one plays")
    func radioSource() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        let server = try await ICYStreamServer(file: file)
        let folder = try Fixtures.shared.scratchDirectory()
        let list = folder.appendingPathComponent("stations.xspf")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
              <track><location>\(server.url.absoluteString)</location><title>Listed FM</title></track>
              <track><location>http://127.0.0.1:9/never</location><title>Nowhere FM</title></track>
            </trackList></playlist>
            """.write(to: list, atomically: true, encoding: .utf8)
        let rig = try await DaemonRig.start(config: """
            [[source]]
            name = "radio"
            type = "radio"
            stations = "\(list.path)"
            [[source.station]]
            name = "Config FM"
            url = "\(server.url.absoluteString)?config"
            genre = "Test"
            """)
        defer { Task { await rig.stop() } }
        let scan = try await rig.ctl("scan", "radio")
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try server.requests().isEmpty, "a scan connects to no station")
        let listed = try await rig.ctl("ls", "--source", "radio", "--json")
        let tracks = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(Set(tracks.compactMap { $0["title"] as? String }) == ["Config FM", "Listed FM", "Nowhere FM"], "\(listed.stdout)")
        let playlists = try await rig.ctl("playlist", "ls")
        #expect(playlists.stdout.contains("radio"), "\(playlists.stdout)")
        #expect(try await rig.ctl("playlist", "play", "radio").status == 0)
        #expect(try await rig.waitForTitle("Config FM"), "the station as the library names it, until it says what plays")
        #expect(try await eventually(within: 30) { try server.requests().count == 1 })
    }

    @Test("a station list URL (PLS): its dead first entry is passed over, the second plays")
    func stationListFallsBack() async throws {
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station))
        let list = try Fixtures.shared.scratchDirectory().appendingPathComponent("station.pls")
        try "[playlist]\nNumberOfEntries=2\nFile1=http://127.0.0.1:9/dead\nFile2=\(server.url.absoluteString)\nVersion=2\n"
            .write(to: list, atomically: true, encoding: .utf8)
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        try await rig.open(list)
        #expect(try await rig.waitForTitle("Test Radio"), "the station's icy-name, the list naming none")
        // OpenUri's check that the station plays is the play's connection (the dead entry has no server).
        let requests = try server.requests()
        #expect(requests.count == 1, "\(requests)")
    }

    @Test("paused briefly, a station goes on from its buffer on the same connection")
    func shortPause() async throws {
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station))
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        try await rig.open(server.url)
        // OpenUri's check that the station plays is the play's connection.
        let connected = try await server.waitForRequests(1).count
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await rig.ctl("play").status == 0)
        #expect(try await eventually(within: 30) { try await rig.property("PlaybackStatus") == "s \"Playing\"" })
        #expect(try server.requests().count == connected, "a short pause keeps the connection")
    }

    @Test("paused longer than live_resume_within (here 0 s: any pause), a station is taken up live on a new connection")
    func longPause() async throws {
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station))
        let rig = try await DaemonRig.start(config: "[playback]\nlive_resume_within = \"0s\"\n")
        defer { Task { await rig.stop() } }
        try await rig.open(server.url)
        let connected = try await server.waitForRequests(1).count
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await rig.ctl("play").status == 0)
        _ = try await server.waitForRequests(connected + 1)
        #expect(try await eventually(within: 30) { try await rig.property("PlaybackStatus") == "s \"Playing\"" })
    }
}
