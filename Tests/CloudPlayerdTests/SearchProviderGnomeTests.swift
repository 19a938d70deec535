import Foundation
import Testing
import TestSupport

/// GNOME Shell's search provider (`org.gnome.Shell.SearchProvider2`) on a real daemon with a
/// scanned WebDAV library, called with `gdbus call` as the shell's GDBus proxy calls it: the
/// first search, a narrowing one, the metas with a cover from the art cache, each kind of
/// result played, LaunchSearch, and what a bad caller sends.
@Suite(.timeLimit(.minutes(6)))
struct SearchProviderGnomeTests {
    @Test("GetInitialResultSet, GetSubsearchResultSet, GetResultMetas (a cover once played), ActivateResult of a track, an album, a playlist; LaunchSearch; bad ids and terms")
    func shellCalls() async throws {
        let rig = try await SearchProviderRig.start()

        // Typing "artist 01": the artist, its two albums, its six tracks, in that order.
        let first = try await rig.ids("GetInitialResultSet", "['artist', '01']")
        let kinds: [Substring] = first.map { $0.split(separator: ":")[0] }
        let expectedKinds: [Substring] = ["artist"] + Array(repeating: "album", count: 2) + Array(repeating: "track", count: 6)
        #expect(kinds == expectedKinds, "\(first)")
        let firstMetas = try await rig.metas(first)
        #expect(firstMetas.map { $0["id"] } == first.map { Optional($0) })
        #expect(firstMetas.first?["name"] == "Artist 01" && firstMetas.first?["description"] == "Artist")
        #expect(firstMetas[1...2].map { $0["name"] ?? "" } == ["Album 1 (Café Ø)", "Album 2"], "\(firstMetas)")
        #expect(firstMetas[1]["description"] == "Album · Artist 01")
        #expect(firstMetas[3...].allSatisfy { $0["name"]?.hasPrefix("Song A01 ") == true && $0["description"]?.hasPrefix("Artist 01 · Album ") == true },
                "\(firstMetas)")
        #expect(firstMetas.allSatisfy { $0["gicon"] == "audio-x-generic" }, "nothing has played: no cover yet")

        // Typing on: "artist 01 album 2" narrows to the album and its three tracks.
        let narrower = try await rig.ids("GetSubsearchResultSet", SearchProviderRig.gvariant(first), "['artist', '01', 'album', '2']")
        #expect(narrower.count == 4 && narrower.first?.hasPrefix("album:") == true, "\(narrower)")
        let album = try #require(narrower.first)
        let albumTracks = try await rig.metas(Array(narrower.dropFirst())).compactMap { $0["name"] }
        #expect(albumTracks == ["Song A01 B2 T01", "Song A01 B2 T02", "Song A01 B2 T03"])

        // A playlist by its name; an id the shell never got is left out of the metas.
        let mix = try await rig.ids("GetInitialResultSet", "['MIX']")
        #expect(mix.count == 1 && mix.first?.hasPrefix("playlist:") == true, "\(mix)")
        let mixed = try await rig.metas(mix + ["track:999999", "nonsense"])
        #expect(mixed.count == 1 && mixed.first?["name"] == "mix" && mixed.first?["description"] == "Playlist file", "\(mixed)")

        // The covered track: chosen, it plays; having played, its metas show its cover file.
        let covered = try await rig.ids("GetInitialResultSet", "['covered', 'so']")
        #expect(covered.count == 1 && covered.first?.hasPrefix("track:") == true, "\(covered)")
        let coveredID = try #require(covered.first)
        let activated = try await rig.gnome("ActivateResult", coveredID, "['covered', 'so']", "12345")
        #expect(activated.status == 0 && activated.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "()", "\(activated.stderr)")
        var now = ("", "")
        #expect(try await eventually {
            now = try await rig.playing()
            return now == ("Playing", SearchProviderRig.coveredTitle)
        }, "\(now)")
        var icon = ""
        #expect(try await eventually {
            icon = try await rig.metas([coveredID]).first?["gicon"] ?? ""
            return icon.hasPrefix("/")
        }, "the cover, once the track played: \(icon)")
        #expect(icon.hasPrefix(rig.rig.cacheHome.path), "a file of the art cache: \(icon)")
        #expect(FileManager.default.contents(atPath: icon) == Data(SearchProviderRig.cover), "the picture the tag holds")
        let coveredAlbum = try await rig.ids("GetInitialResultSet", "['covered', 'album']")
        #expect(try await rig.metas(coveredAlbum).first?["gicon"] == icon, "its album shows it too")

        // An album chosen replaces the queue with its tracks and plays the first.
        #expect(try await rig.gnome("ActivateResult", album, "['artist', '01', 'album', '2']", "0").status == 0)
        var queue: [String] = []
        #expect(try await eventually {
            queue = try await rig.queueTitles()
            return queue == albumTracks
        }, "\(queue)")
        #expect(try await eventually { try await rig.playing().status == "Playing" })

        // A playlist chosen is activated (the queue is its two tracks).
        #expect(try await rig.gnome("ActivateResult", try #require(mix.first), "['mix']", "0").status == 0)
        #expect(try await eventually {
            queue = try await rig.queueTitles()
            return queue == ["Song A01 B2 T01", "Song A03 B2 T03"]
        }, "\(queue)")

        // LaunchSearch: there is no window to open; it answers and changes nothing.
        let before = try await rig.queueTitles()
        let launched = try await rig.gnome("LaunchSearch", "['artist']", "0")
        #expect(launched.status == 0 && launched.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "()", "\(launched.stderr)")
        #expect(try await rig.queueTitles() == before)

        // Bad ids get one clear error each; odd terms (FTS syntax, quotes, a huge word) an answer.
        for bad in ["nonsense", "track:0", "track:-4", "album:999999", "playlist:999999", String(repeating: "x", count: 5000)] {
            let refused = try await rig.gnome("ActivateResult", bad, "[]", "0")
            #expect(refused.status != 0 && refused.stderr.contains("GDBus.Error:"), "\(bad.prefix(20)): \(refused.stdout)")
        }
        for terms in [#"['"', '*', 'NEAR(', ')', 'artist:', '{album}']"#, "['\(String(repeating: "é", count: 50_000))']", "[]", "['', ' ']"] {
            let answered = try await rig.gnome("GetInitialResultSet", terms)
            #expect(answered.status == 0, "\(terms.prefix(40)): \(answered.stderr)")
        }
        #expect(try await rig.ids("GetInitialResultSet", "['artist', '01']") == first, "the daemon answers as before")
        let output = await rig.rig.stop()
        #expect(!output.stderr.contains(rig.rig.server.password), "no password in the log")
    }
}
