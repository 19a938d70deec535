import Foundation
import Testing
import TestSupport

/// `find`, `search`, `listall` and `listallinfo` once the song catalog (`MPDSongCatalog`) is
/// made: the songs the library finds, in its order, each as `lsinfo` prints it from the library;
/// sources renamed by a reload are in the next answer, before a catalog of them is made.
@Suite(.timeLimit(.minutes(4)))
struct MPDSongCatalogTests {
    /// A daemon over 3 artists × 2 albums × 4 tracks (`LibraryTree`) as the source `music`,
    /// scanned, its catalog made; the rig, the tracks and the music folder.
    static func start() async throws -> (MPDDaemonRig, [LibraryTree.Track], URL) {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        let tracks = try LibraryTree.write(into: music, artists: 3, albums: 2, tracks: 4, audio: try await LibraryTree.audio().bytes)
        let rig = try await MPDDaemonRig.start(extra: Self.source(named: "music", music))
        #expect(try await rig.mpc("update", "--wait").status == 0)
        #expect(try await eventually(within: 60) { rig.daemon.errorSoFar().contains("24 songs listed for find and search") },
                "\(rig.daemon.errorSoFar())")
        return (rig, tracks, music)
    }

    static func source(named name: String, _ music: URL) -> String {
        "\n[[source]]\nname = \"\(name)\"\ntype = \"local\"\npath = \"\(music.path)\"\n"
    }

    /// The files of an answer, in order.
    static func files(_ lines: [String]) -> [String] {
        MPDSocketClient.fields(lines).filter { $0.key == "file" }.map(\.value)
    }

    @Test("find and search from the catalog: the songs the filter finds in the library's order (listall's), windows, each song lsinfo's with the tags the client asked for")
    func answersAsTheLibrary() async throws {
        let (rig, tracks, _) = try await Self.start()
        let all = try rig.client(), some = try rig.client()
        #expect(try some.command("tagtypes clear") == ["OK"])
        #expect(try some.command("tagtypes enable Title AlbumArtist Track") == ["OK"])
        for client in [all, some] { try Self.answers(client, tracks) }
        #expect(!MPDSocketClient.fields(try some.command(#"search any "a02""#)).contains { $0.key == "Artist" || $0.key == "Album" })
        await rig.stop()
    }

    static func answers(_ client: MPDSocketClient, _ tracks: [LibraryTree.Track]) throws {
        let order = Self.files(try client.command("listall"))
        #expect(order.count == 24)
        let cases: [(String, (LibraryTree.Track) -> Bool, Range<Int>?)] = [
            (#"search any "a02""#, { $0.title.contains("A02") }, nil),
            (#"find artist "Artist 03""#, { $0.artist == "Artist 03" }, nil),
            (#"search "(Album contains 'CAFÉ')""#, { $0.album.hasPrefix("Album 1 ") }, nil),
            (#"find "(!(Title contains 'T01'))""#, { !$0.title.contains("T01") }, nil),
            (#"find "(Title =~ 'B2 T0[12]$')""#, { $0.title.hasSuffix("B2 T01") || $0.title.hasSuffix("B2 T02") }, nil),
            (#"find "(base 'music/Artist 01')""#, { $0.path.hasPrefix("Artist 01/") }, nil),
            (#"search title "t03" window 1:3"#, { $0.title.hasSuffix("T03") }, 1..<3),
            (#"search any "nowhere at all""#, { _ in false }, nil),
        ]
        for (command, finds, window) in cases {
            let answer = try client.command(command)
            #expect(answer.last == "OK", "\(command): \(answer.suffix(2))")
            let found = order.filter { file in tracks.contains { "music/" + $0.path == file && finds($0) } }
            let expected = window.map { Array(found[$0]) } ?? found
            #expect(Self.files(answer) == expected, "\(command)")
            // Each song as the library prints it for `lsinfo` of its file.
            let songs = MPDCompareTests.entries(answer)
            for (song, file) in zip(songs, expected) {
                let alone = MPDCompareTests.entries(try client.command("lsinfo \"\(file)\""))
                #expect(alone.count == 1 && alone[0].map { "\($0.key): \($0.value)" } == song.map { "\($0.key): \($0.value)" }, "\(command): \(file)")
            }
        }
    }

    @Test("listall and listallinfo from the catalog: each directory named before its songs, in the library's order; each song lsinfo's; answered from the catalog, not the database")
    func listAll() async throws {
        let (rig, tracks, _) = try await Self.start()
        let all = try rig.client(), some = try rig.client()
        #expect(try some.command("tagtypes clear") == ["OK"])
        #expect(try some.command("tagtypes enable Artist Date") == ["OK"])
        /// What listall says of `folder` (nil: the root) from the tree's tracks, which it wrote in
        /// order: the folder itself first, as MPD names it (the root's source folder, `music`).
        func expected(under folder: String?) -> [String] {
            let root = folder.map { "music/" + $0 } ?? "music"
            var lines = ["directory: " + root]
            var named: Set<String> = []
            for track in tracks where folder.map({ track.path.hasPrefix($0 + "/") }) ?? true {
                let parts = ("music/" + track.path).split(separator: "/").map(String.init)
                for depth in 1..<(parts.count - 1) {
                    // The directories below the one listed.
                    let directory = parts[...depth].joined(separator: "/")
                    if !(root + "/").hasPrefix(directory + "/"), named.insert(directory).inserted { lines.append("directory: " + directory) }
                }
                lines.append("file: music/" + track.path)
            }
            return lines
        }
        let folders: [String?] = [nil, "Artist 02", "Artist 03/Album 1 (Café Ø)"]
        for (folder, client) in folders.flatMap({ folder in [(folder, all), (folder, some)] }) {
            let argument = folder.map { " \"music/\($0)\"" } ?? ""
            let listed = try client.command("listall" + argument)
            #expect(listed.last == "OK" && Array(listed.dropLast()) == expected(under: folder), "listall\(argument): \(listed)")
            let entries = MPDCompareTests.entries(try client.command("listallinfo" + argument))
            #expect(entries.map { "\($0[0].key): \($0[0].value)" } == expected(under: folder), "listallinfo\(argument)")
            for entry in entries where entry[0].key == "file" {
                let alone = MPDCompareTests.entries(try client.command("lsinfo \"\(entry[0].value)\""))
                #expect(alone.count == 1 && alone[0].map { "\($0.key): \($0.value)" } == entry.map { "\($0.key): \($0.value)" }, "\(entry[0].value)")
            }
        }
        // Answered from the catalog, not the database: a title changed behind the edition's
        // back (its trigger dropped first) is in the library's `lsinfo`, not in the catalog's.
        let file = "music/" + tracks[0].path
        let changed = try await ChildProcess.run("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=30)
            db.execute('DROP TRIGGER "__trackEdition_au"')
            db.execute("UPDATE track SET title = 'Behind its back' WHERE title = ?", (sys.argv[2],))
            db.commit()
            """, rig.home.appendingPathComponent("cloudplayerd/library.sqlite").path, tracks[0].title])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(MPDSocketClient.value("Title", in: try all.command("lsinfo \"\(file)\"")) == "Behind its back")
        for command in ["listallinfo \"music/Artist 01\"", "find \"(base 'music/Artist 01')\""] {
            let titles = MPDSocketClient.fields(try all.command(command)).filter { $0.key == "Title" }.map(\.value)
            #expect(titles.first == tracks[0].title && !titles.contains("Behind its back"), "\(command): \(titles.prefix(2))")
        }
        await rig.stop()
    }

    @Test("a reload that renames the source: the next search names the songs by the new name, and the catalog is made again")
    func renamedSource() async throws {
        let (rig, _, music) = try await Self.start()
        let client = try rig.client()
        #expect(Self.files(try client.command(#"search any "a02""#)).allSatisfy { $0.hasPrefix("music/Artist 02/") })
        func made() -> Int { rig.daemon.errorSoFar().components(separatedBy: "24 songs listed for find and search").count - 1 }
        let before = made()
        try Data("""
            [mpd]
            listen = ["127.0.0.1:\(rig.port)", "\(rig.socket)"]
            \(Self.source(named: "tunes", music))
            """.utf8).write(to: rig.home.appendingPathComponent("config.toml"))
        rig.daemon.signal(SIGHUP)
        #expect(try await eventually(within: 30) { try client.command("lsinfo").contains("directory: tunes") })
        let renamed = Self.files(try client.command(#"search any "a02""#))
        #expect(renamed.count == 8 && renamed.allSatisfy { $0.hasPrefix("tunes/Artist 02/") }, "\(renamed)")
        #expect(try await eventually(within: 60) { made() > before }, "made again for the new name: \(rig.daemon.errorSoFar())")
        #expect(Self.files(try client.command(#"search any "a02""#)) == renamed)
        await rig.stop()
    }
}
