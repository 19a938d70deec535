import Foundation
import Testing
import TestSupport

/// Searches as MPD 0.23 answers them on the same files: a piece of a file's path (`search file`,
/// ncmpcpp's and Cantata's Filename search; `file contains`), a date among `any`'s tags, and
/// `readpicture` of a song whose file holds no picture (its folder's cover is `albumart`'s).
extension MPDCompareTests {
    @Test("search file, file contains, any with a date, readpicture without an embedded picture: the songs and answers MPD 0.23 gives")
    func searches() async throws {
        let (server, rig) = try await Self.bothOverLibrary()
        let theirs = try MPDSocketClient(port: server.port), ours = try rig.client()
        let commands = [
            #"search file "light""#, #"search file "01 A""#, #"search file "second wind/02""#, #"search file ".FLAC""#,
            #"search "(file contains 'Quiet')""#, #"find "(file contains 'Band/First')""#, #"search any "2019""#,
            #"search any "200""#, #"find any "2004""#, #"search "(any contains '2001')""#, #"search any "ember""#,
        ]
        for command in commands {
            let their = try Self.files(theirs, command), our = try Self.files(ours, command)
            #expect(our == their, "\(command): ours \(our), MPD's \(their)")
            #expect(!their.isEmpty, "\(command) finds something in MPD's library")
        }
        // No picture in the file: MPD answers nothing for readpicture, the folder's cover for albumart.
        let song = "Alpha Band/First Light/01 Aurora.mp3"
        #expect(try theirs.command("readpicture \"\(song)\" 0") == ["OK"])
        #expect(try ours.command("readpicture \"music/\(song)\" 0") == ["OK"])
        await rig.stop()
        await server.stop()
    }

    @Test("the root's folders (the sources) in MPD's order of a folder's directories, letters before case — not the config's order")
    func rootSorted() async throws {
        let file = try await Fixtures.shared.url(.cbrMP3)
        var extra = ""
        for name in ["zeta", "Radio", "books", "Music"] {
            let folder = try Fixtures.shared.scratchDirectory().appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent("a.mp3"))
            extra += "\n[[source]]\nname = \"\(name)\"\ntype = \"local\"\npath = \"\(folder.path)\"\n"
        }
        let rig = try await MPDDaemonRig.start(extra: extra)
        #expect(try await rig.mpc("update", "--wait").status == 0)
        let answer = try rig.client().command("lsinfo \"\"")
        #expect(MPDSocketClient.fields(answer).filter { $0.key == "directory" }.map(\.value) == ["books", "Music", "Radio", "zeta"], "\(answer)")
        await rig.stop()
    }
}

/// The tags beyond the eight (composer, conductor, MusicBrainz ids, the date as written, …), as
/// MPD 0.23 lists, finds, groups and counts them on the same files (issue 46).
extension MPDCompareTests {
    @Test("tagtypes, and find, search, list and count over Composer, Conductor, OriginalDate, Label, Work, MusicBrainz ids and a full Date: MPD 0.23's answers")
    func moreTags() async throws {
        let (server, rig) = try await Self.bothOverLibrary()
        let theirs = try MPDSocketClient(port: server.port), ours = try rig.client()
        // MPD also lists Name, a stream's (a station's name), which no file carries.
        #expect(try ours.command("tagtypes") == (try theirs.command("tagtypes")).filter { $0 != "tagtype: Name" })
        let finds = [
            #"find composer "Clara Voss""#, #"search composer "voss""#, #"find conductor "Otto Reiner""#,
            #"find "(MUSICBRAINZ_ALBUMID == '0f3a1c2e-6666-4a4a-9b9b-000000000006')""#, #"find date "2001-03-01""#,
            #"search date "2001""#, #"find originaldate "1998""#, #"search label "light""#, #"find "(Work == 'Wind Suite')""#,
            #"find "(MovementNumber == '2')""#, #"search "(ArtistSort contains 'band,')""#, #"find composer "Clara Voss" sort ArtistSort"#,
        ]
        for command in finds {
            let their = try Self.files(theirs, command), our = try Self.files(ours, command)
            #expect(our == their, "\(command): ours \(our), MPD's \(their)")
            #expect(!their.isEmpty, "\(command) finds something in MPD's library")
        }
        // A date compared as written: "2001" is not "2001-03-01".
        #expect(try Self.files(ours, #"find date "2001""#) == (try Self.files(theirs, #"find date "2001""#)))
        for command in ["list composer", "list date", "list label group composer", "count group composer", "list originaldate",
                        // Cantata's albums: the last group outermost.
                        "list album group albumartist group musicbrainz_albumid", "list albumartist group musicbrainz_albumid group date",
                        #"list performer "(Composer == 'Ida Lund')""#, "list musicbrainz_albumid"] {
            let (mine, real) = (try ours.command(command), try theirs.command(command))
            #expect(mine == real, "\(command): ours \(mine), MPD's \(real)")
        }
        await rig.stop()
        await server.stop()
    }
}
