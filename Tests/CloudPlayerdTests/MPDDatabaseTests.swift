import Foundation
import Testing
import TestSupport

/// The database families through real clients, over a local folder the daemon scans when `mpc
/// update --wait` asks (so `update` and idle `update`/`database` are in the path, and tested): `mpc` browses,
/// searches, lists and keeps stored playlists; python-mpd2 (Tests/MPDTools/mpd_library.py)
/// checks filters, windows, groups, paging of `listallinfo` and the cover's binary chunks.
@Suite(.timeLimit(.minutes(5)))
struct MPDDatabaseTests {
    /// A daemon over 2 artists × 2 albums × 3 tracks (`LibraryTree`), plus one file with a cover,
    /// scanned through MPD's `update`.
    static func start() async throws -> (MPDDaemonRig, [LibraryTree.Track], Data) {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        let audio = try await LibraryTree.audio()
        let tracks = try LibraryTree.write(into: music, artists: 2, albums: 2, tracks: 3, audio: audio.bytes)
        // A "picture" of 5,000 bytes (PNG's signature, then a pattern): several 1 KiB chunks.
        let cover = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<4992).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let covered = music.appendingPathComponent("Covers")
        try FileManager.default.createDirectory(at: covered, withIntermediateDirectories: true)
        try Data(LibraryTree.id3v2(title: "Covered", artist: "Painter", album: "Canvas", track: 1, cover: Array(cover)) + audio.bytes)
            .write(to: covered.appendingPathComponent("covered.mp3"))
        let rig = try await MPDDaemonRig.start(extra: """

            [[source]]
            name = "music"
            type = "local"
            path = "\(music.path)"
            """)
        let update = try await rig.mpc("update", "--wait")
        #expect(update.status == 0, "\(update.stderr)")
        return (rig, tracks, cover)
    }

    @Test("mpc: update, ls, listall, search, find, list with group, count, stats")
    func browseAndSearch() async throws {
        let (rig, tracks, _) = try await Self.start()
        #expect(try await rig.mpc("ls").stdout == "music\n")
        #expect(try await rig.mpc("ls", "music").stdout == "music/Artist 01\nmusic/Artist 02\nmusic/Covers\n")
        let album = "music/Artist 01/Album 1 (Café Ø)"
        let listed: [String] = try await rig.mpc("ls", album).stdout.split(separator: "\n").map(String.init)
        let inAlbum: [String] = tracks.filter { $0.path.hasPrefix("Artist 01/Album 1 ") }.map { "music/" + $0.path }
        #expect(listed == inAlbum)
        #expect(try await rig.mpc("ls", "music/nowhere").stderr.contains("No such directory"))
        let all = try await rig.mpc("listall").stdout.split(separator: "\n")
        #expect(all.count == 13 && Set(all) == Set(tracks.map { Substring("music/" + $0.path) } + ["music/Covers/covered.mp3"]))
        #expect(try await rig.mpc("search", "title", "b2 t03").stdout == "music/Artist 01/Album 2/03 Song A01 B2 T03.mp3\nmusic/Artist 02/Album 2/03 Song A02 B2 T03.mp3\n")
        #expect(try await rig.mpc("find", "title", "song a01 b2 t03").stdout.isEmpty, "find keeps case")
        #expect(try await rig.mpc("find", "artist", "Artist 02", "album", "Album 2").stdout.split(separator: "\n").count == 3)
        #expect(try await rig.mpc("list", "album", "artist", "Artist 01").stdout == "Album 1 (Café Ø)\nAlbum 2\n")
        #expect(try await rig.mpc("list", "artist").stdout == "Artist 01\nArtist 02\nPainter\n")
        let stats = try await rig.mpc("stats").stdout.split(separator: "\n").map { $0.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(stats.filter { ["Artists", "Albums", "Songs"].contains($0.first) }.map { $0.last ?? "" } == ["3", "3", "13"], "\(stats)")
        await rig.stop()
    }

    @Test("mpc: save, lsplaylists, playlist, load, rm, findadd; playlistadd of a folder")
    func storedPlaylists() async throws {
        let (rig, _, _) = try await Self.start()
        #expect(try await rig.mpc("findadd", "artist", "Artist 02").status == 0)
        #expect(try await rig.mpc("playlist").stdout.split(separator: "\n").count == 6)
        #expect(try await rig.mpc("save", "mine").status == 0)
        #expect(try await rig.mpc("save", "mine").stderr.contains("Playlist already exists"))
        #expect(try await rig.mpc("lsplaylists").stdout.split(separator: "\n").contains("mine"))
        #expect(try await rig.mpc("playlist", "mine").stdout.split(separator: "\n").count == 6)
        // Debian's mpc 0.34 has no `addto`: the command itself, as a client sends it.
        #expect(try rig.client().command(#"playlistadd "mine" "music/Covers""#) == ["OK"])
        #expect(try await rig.mpc("-f", "%file%", "playlist", "mine").stdout.hasSuffix("music/Covers/covered.mp3\n"))
        #expect(try await rig.mpc("clear").status == 0)
        #expect(try await rig.mpc("load", "mine").status == 0)
        #expect(try await rig.mpc("playlist").stdout.split(separator: "\n").count == 7)
        #expect(try await rig.mpc("rm", "mine").status == 0)
        #expect(try await rig.mpc("playlist", "mine").stderr.contains("No such playlist"))
        await rig.stop()
    }

    @Test("idle: `update` when a scan starts and ends, `database` only when it changed the library, for a client that idles meanwhile; `stored_playlist` when one is saved")
    func idleUpdateAndDatabase() async throws {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        let audio = try await LibraryTree.audio()
        let tracks = try LibraryTree.write(into: music, artists: 1, albums: 1, tracks: 2, audio: audio.bytes)
        let rig = try await MPDDaemonRig.start(extra: "\n[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(music.path)\"\n")
        let watcher = try rig.client()
        // What the watcher hears, idle after idle (what changes between two is kept for the
        // next), until it has heard `database` or has idled ten times.
        func heardUntilDatabase() throws -> Set<String> {
            var heard: Set<String> = []
            for _ in 0..<10 where !heard.contains("database") {
                heard.formUnion(MPDSocketClient.fields(try watcher.command("idle update database")).filter { $0.key == "changed" }.map(\.value))
            }
            return heard
        }
        #expect(try await rig.mpc("update", "--wait").status == 0)
        #expect(try heardUntilDatabase() == ["update", "database"])
        // A rescan that finds nothing new: `update` alone (kept since the scan ended).
        #expect(try await rig.mpc("update", "--wait").status == 0)
        let again = MPDSocketClient.fields(try watcher.command("idle update database")).filter { $0.key == "changed" }.map(\.value)
        #expect(again == ["update"], "\(again)")
        // A new file: `database` again.
        try FileManager.default.copyItem(at: music.appendingPathComponent(tracks[0].path),
                                         to: music.appendingPathComponent(tracks[0].path).deletingLastPathComponent().appendingPathComponent("added.mp3"))
        #expect(try await rig.mpc("update", "--wait").status == 0)
        #expect(try heardUntilDatabase() == ["update", "database"])
        // A stored playlist saved: `stored_playlist` (the queue's change is `playlist`, not asked).
        watcher.send("idle stored_playlist")
        #expect(try await rig.mpc("add", "music/" + tracks[0].path).status == 0)
        #expect(try await rig.mpc("save", "kept").status == 0)
        #expect(try watcher.readAnswer() == ["changed: stored_playlist", "OK"])
        await rig.stop()
    }

    @Test("python-mpd2: filter expressions, sort and window, list groups, count, listallinfo's fields, albumart and readpicture in chunks, bad filters")
    func protocolDetails() async throws {
        let (rig, _, cover) = try await Self.start()
        let coverFile = try Fixtures.shared.scratchDirectory().appendingPathComponent("cover.jpg")
        try cover.write(to: coverFile)
        let result = try await rig.python("mpd_library.py", [coverFile.path])
        #expect(result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
        await rig.stop()
    }
}
