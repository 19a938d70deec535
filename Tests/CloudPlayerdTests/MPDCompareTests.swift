import Foundation
import Testing
import TestSupport

/// Answers the protocol fixes, compared with a real MPD 0.23 (Debian's `mpd`) playing the same
/// file: the field names and their order in `status` and `currentsong`. cloudplayerd may leave
/// out a field it does not know (a file outside the library has no `Last-Modified`), never add
/// one MPD does not have or put them in another order.
@Suite(.timeLimit(.minutes(4)))
struct MPDCompareTests {
    /// A real MPD over a folder holding `file`.
    static func realMPD(serving file: URL) async throws -> MPDTestServer {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: music.appendingPathComponent(file.lastPathComponent))
        return try await MPDTestServer(music: music)
    }

    /// A real MPD and our daemon over `MPDTools.library()` (ours as the source `music`), both scanned.
    static func bothOverLibrary() async throws -> (MPDTestServer, MPDDaemonRig) {
        let music = try await MPDTools.library()
        let server = try await MPDTestServer(music: music)
        let rig = try await MPDDaemonRig.start(extra: "\n[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(music.path)\"\n")
        #expect(try await rig.mpc("update", "--wait").status == 0)
        return (server, rig)
    }

    /// The songs a search command finds, as paths below the music folder (ours without the
    /// source's `music/`), sorted; the answer must end in OK.
    static func files(_ client: MPDSocketClient, _ command: String) throws -> [String] {
        let answer = try client.command(command)
        #expect(answer.last == "OK", "\(command): \(answer.suffix(2))")
        return MPDSocketClient.fields(answer).filter { $0.key == "file" }
            .map { $0.value.replacingOccurrences(of: "music/", with: "", options: .anchored) }.sorted()
    }

    /// The keys of an answer, in order.
    static func keys(_ lines: [String]) -> [String] { MPDSocketClient.fields(lines).map(\.key) }

    /// Whether `ours` is `theirs` with some keys left out: the same keys in the same order.
    static func isSubsequence(_ ours: [String], of theirs: [String]) -> Bool {
        var rest = theirs[...]
        for key in ours {
            guard let index = rest.firstIndex(of: key) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    @Test("status (stopped and playing) and currentsong: MPD 0.23's field names in its order")
    func statusAndCurrentSong() async throws {
        let file = try await Fixtures.shared.url(.longFLAC)
        let server = try await Self.realMPD(serving: file)
        let port = server.port
        let theirs = try MPDSocketClient(port: port)
        let rig = try await MPDDaemonRig.start()
        let ours = try rig.client()

        #expect(Self.keys(try ours.command("status")) == Self.keys(try theirs.command("status")), "stopped status")
        for client in [theirs, ours] {
            #expect(try client.command("add \"\(client === theirs ? file.lastPathComponent : file.absoluteString)\"").last == "OK")
            #expect(try client.command("play 0").last == "OK")
        }
        #expect(try await eventually(within: 30) { MPDSocketClient.value("audio", in: try theirs.command("status")) != nil })
        #expect(try await eventually(within: 30) { MPDSocketClient.value("audio", in: try ours.command("status")) != nil })
        let theirStatus = Self.keys(try theirs.command("status"))
        let ourStatus = Self.keys(try ours.command("status"))
        #expect(ourStatus == theirStatus, "playing status: ours \(ourStatus), MPD's \(theirStatus)")
        let theirSong = Self.keys(try theirs.command("currentsong"))
        let ourSong = Self.keys(try ours.command("currentsong"))
        #expect(Self.isSubsequence(ourSong, of: theirSong), "currentsong: ours \(ourSong), MPD's \(theirSong)")
        #expect(Set(theirSong).subtracting(ourSong).isSubset(of: ["Last-Modified"]), "currentsong: ours \(ourSong), MPD's \(theirSong)")
        for key in ["Pos", "Id", "Time", "duration", "file"] { #expect(ourSong.contains(key)) }
        print("MPD currentsong: MPD \(theirSong); cloudplayerd \(ourSong)")
        await rig.stop()
        await server.stop()
    }

    @Test("regular expressions (=~, !~) and NOT in find and search: the songs MPD 0.23 finds, a song without the tag among them where MPD counts it")
    func regularExpressions() async throws {
        let (server, rig) = try await Self.bothOverLibrary()
        let theirs = try MPDSocketClient(port: server.port), ours = try rig.client()
        let commands = [
            #"find "(Artist =~ '^Alpha')""#, #"search "(Title =~ 'GLAC|dune')""#, #"find "(Title =~ 'GLAC|dune')""#,
            #"find "(Genre !~ 'Rock')""#, #"find "(Artist =~ '^$')""#, #"search "(Album !~ 'light')""#,
            #"find "((Album =~ 'Light|Wind') AND (Track =~ '^2$'))""#, #"find "(Date =~ '^20(0|1)[49]')""#,
            #"find "(!(Title =~ '[aeiou]r'))""#, #"find "(!(Genre == 'Rock'))""#, #"find "(!(Artist contains 'Band'))""#,
        ]
        for command in commands {
            let their = try Self.files(theirs, command), our = try Self.files(ours, command)
            #expect(our == their, "\(command): ours \(our), MPD's \(their)")
            print("MPD \(command): \(their.count) songs, ours \(our.count)")
        }
        #expect(try Self.files(theirs, #"find "(Artist =~ '^Alpha')""#).count == 5, "the library is what the test expects")
        await rig.stop()
        await server.stop()
    }

    @Test("replay_gain_status and replay_gain_mode, and what Cantata asks as it connects: MPD's answers; the mode chosen is kept after a restart")
    func replayGain() async throws {
        let server = try await Self.realMPD(serving: try await Fixtures.shared.url(.vbrMP3))
        let theirs = try MPDSocketClient(port: server.port)
        let rig = try await MPDDaemonRig.start()
        let ours = try rig.client()
        for line in ["replay_gain_status", "replay_gain_mode album", "replay_gain_status", "replay_gain_mode loud", "replay_gain_status",
                     // What Cantata asks as it connects.
                     "lsinfo \"mpd-client://cantata/2.5.0\"", "add \"mpd-client://cantata/2.5.0\"", "listpartitions", "partition default",
                     "partition other", "channels", "listplaylistinfo \"[Radio Streams]\""] {
            let (mine, real) = (try ours.command(line), try theirs.command(line))
            #expect(mine == real, "\(line): ours \(mine), MPD's \(real)")
        }
        // Kept in the state file: the next daemon over the same data begins with it.
        let state = rig.home.appendingPathComponent("cloudplayerd/state.json")
        #expect(try await eventually(within: 30) { ((try? String(contentsOf: state, encoding: .utf8)) ?? "").contains("album") })
        await rig.stop()
        let again = try await MPDDaemonRig.start(home: rig.home)
        // Restored as the daemon starts (the port may answer a moment before).
        #expect(try await eventually(within: 30) {
            MPDSocketClient.value("replay_gain_mode", in: try again.client().command("replay_gain_status")) == "album"
        })
        await again.stop()
    }

    @Test("status's bitrate while a constant-rate MP3 plays: MPD's number")
    func bitrate() async throws {
        let file = try await Fixtures.shared.url(.longCBRMP3)
        let server = try await Self.realMPD(serving: file)
        let theirs = try MPDSocketClient(port: server.port)
        let rig = try await MPDDaemonRig.start()
        let ours = try rig.client()
        for client in [theirs, ours] {
            #expect(try client.command("add \"\(client === theirs ? file.lastPathComponent : file.absoluteString)\"").last == "OK")
            #expect(try client.command("play 0").last == "OK")
        }
        // MPD says 0 until its decoder has a frame, as ours does until the track is heard.
        #expect(try await eventually(within: 30) { MPDSocketClient.value("bitrate", in: try theirs.command("status")) == "128" })
        #expect(try await eventually(within: 30) { MPDSocketClient.value("bitrate", in: try ours.command("status")) == "128" })
        await rig.stop()
        await server.stop()
    }

    /// An answer's entries (`file`, `directory`, `playlist` each begins one), each as its fields.
    static func entries(_ lines: [String]) -> [[(key: String, value: String)]] {
        var entries: [[(key: String, value: String)]] = []
        for field in MPDSocketClient.fields(lines) {
            if ["file", "directory", "playlist"].contains(field.key) || entries.isEmpty { entries.append([]) }
            entries[entries.count - 1].append(field)
        }
        return entries
    }

    @Test("lsinfo of every folder of a library: MPD 0.23's entries in its order, each entry's fields MPD's, the tags' values MPD's")
    func lsinfo() async throws {
        let (server, rig) = try await Self.bothOverLibrary()
        let theirs = try MPDSocketClient(port: server.port), ours = try rig.client()
        // MPD's root is the music folder; here it is the source's folder, `music`.
        for folder in ["", "Alpha Band", "Alpha Band/First Light", "Alpha Band/Second Wind", "Beta Ensemble", "Beta Ensemble/Quiet Rooms"] {
            let theirEntries = Self.entries(try theirs.command("lsinfo \"\(folder)\""))
            let ourEntries = Self.entries(try ours.command("lsinfo \"music\(folder.isEmpty ? "" : "/" + folder)\""))
            let theirNames = theirEntries.map { "\($0[0].key): \($0[0].value)" }
            let ourNames = ourEntries.map { "\($0[0].key): \($0[0].value.replacingOccurrences(of: "music/", with: "", options: .anchored))" }
            #expect(ourNames == theirNames, "lsinfo \(folder)")
            for (ourEntry, theirEntry) in zip(ourEntries, theirEntries) where ourEntry[0].key == theirEntry[0].key {
                // MPD says the tags in the order the file holds them (the protocol leaves that
                // open): the tags are compared as a set; the fields around them in order. Ours
                // lacks Last-Modified and Format (the library keeps neither a file's date nor its
                // sample format), which clients treat as optional.
                let fixed: Set = ["file", "directory", "Last-Modified", "Format", "Time", "duration"]
                let tags = Set(theirEntry.map(\.key)).subtracting(fixed)
                let ourKeys = ourEntry.map(\.key), theirKeys = theirEntry.map(\.key)
                #expect(ourKeys.filter { !tags.contains($0) } == theirKeys.filter { !tags.contains($0) && !["Last-Modified", "Format"].contains($0) },
                        "\(theirEntry[0].value): ours \(ourKeys), MPD's \(theirKeys)")
                #expect(Set(ourKeys).subtracting(fixed) == tags, "\(theirEntry[0].value): ours \(ourKeys), MPD's \(theirKeys)")
                // The tags the files hold and the length (whole seconds) are facts, not choices.
                for key in tags.union(["Time"]) {
                    #expect(ourEntry.first { $0.key == key }?.value == theirEntry.first { $0.key == key }?.value,
                            "\(theirEntry[0].value): \(key)")
                }
            }
        }
        await rig.stop()
        await server.stop()
    }
}
