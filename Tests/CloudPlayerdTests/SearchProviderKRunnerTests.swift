import Foundation
import Testing
import TestSupport

/// KRunner's runner (`org.kde.krunner1`) on a real daemon with a scanned WebDAV library, called
/// with `busctl` as KRunner's D-Bus runner calls it: Match, Actions, Run with and without an action.
@Suite(.timeLimit(.minutes(6)))
struct SearchProviderKRunnerTests {
    /// A match as busctl's JSON shows `(sssida{sv})`.
    struct Match {
        let id: String, text: String, icon: String, type: Int, relevance: Double
        let properties: [String: Any]

        init?(_ value: Any) {
            guard let fields = value as? [Any], fields.count == 6, let id = fields[0] as? String, let text = fields[1] as? String,
                  let icon = fields[2] as? String, let type = fields[3] as? Int, let relevance = fields[4] as? Double,
                  let properties = fields[5] as? [String: Any] else { return nil }
            (self.id, self.text, self.icon, self.type, self.relevance, self.properties) = (id, text, icon, type, relevance, properties)
        }

        func property(_ name: String) -> Any? { (properties[name] as? [String: Any])?["data"] }
    }

    func matches(_ rig: SearchProviderRig, _ query: String) async throws -> [Match] {
        let answer = try await rig.krunner("Match", "s", query)
        #expect(answer.result.status == 0, "\(answer.result.stderr)")
        let list = (answer.data as? [Any])?.first as? [Any] ?? []
        return list.compactMap(Match.init)
    }

    @Test("Match (artists, albums, tracks, playlists; an exact name first), Actions, Run: play a track, queue an album, activate a playlist; bad ids and actions")
    func runnerCalls() async throws {
        let rig = try await SearchProviderRig.start()

        let found = try await matches(rig, "Artist 01")
        #expect(found.count == 9, "\(found.map(\.id))")
        let artist = try #require(found.first)
        #expect(artist.id.hasPrefix("artist:") && artist.text == "Artist 01" && artist.type == 100 && artist.relevance == 1,
                "the name typed whole is an exact match: \(artist)")
        #expect(artist.icon == "view-media-artist" && artist.property("category") as? String == "Artists")
        #expect(found.dropFirst().allSatisfy { $0.type == 30 && $0.relevance < 1 })
        #expect(zip(found.dropFirst(), found.dropFirst(2)).allSatisfy { $0.relevance > $1.relevance }, "relevance falls with the place")
        let album = try #require(found.first { $0.text == "Album 2" })
        #expect(album.property("subtext") as? String == "Album · Artist 01" && album.property("category") as? String == "Albums")
        #expect(album.property("actions") as? [String] == ["queue"])
        let track = try #require(found.first { $0.text == "Song A01 B1 T02" })
        #expect(track.icon == "audio-x-generic" && track.property("subtext") as? String == "Artist 01 · Album 1 (Café Ø)")
        let playlist = try #require(try await matches(rig, "mix").first)
        #expect(playlist.id.hasPrefix("playlist:") && playlist.property("category") as? String == "Playlists")
        #expect(playlist.property("actions") == nil, "a playlist is played, not queued")
        #expect(try await matches(rig, "zzz nothing").isEmpty)

        let actions = try await rig.krunner("Actions")
        #expect((actions.data as? [Any])?.first as? [[String]] == [["queue", "Add to the queue", "list-add"]], "\(actions.result.stdout)")

        // Run without an action plays the track; with "queue" an album's tracks join the queue.
        #expect(try await rig.rig.ctl("queue", "clear").status == 0)
        #expect(try await rig.krunner("Run", "ss", track.id, "").result.status == 0)
        #expect(try await eventually { try await rig.playing() == ("Playing", "Song A01 B1 T02") })
        let queued = try await rig.krunner("Run", "ss", album.id, "queue")
        #expect(queued.result.status == 0, "\(queued.result.stderr)")
        var queue: [String] = []
        #expect(try await eventually {
            queue = try await rig.queueTitles()
            return queue == ["Song A01 B1 T02", "Song A01 B2 T01", "Song A01 B2 T02", "Song A01 B2 T03"]
        }, "\(queue)")
        #expect(try await rig.krunner("Run", "ss", playlist.id, "").result.status == 0)
        #expect(try await eventually { try await rig.queueTitles() == ["Song A01 B2 T01", "Song A03 B2 T03"] })

        // Bad input: one error each, and the runner answers on.
        for (id, action) in [(playlist.id, "queue"), (track.id, "delete"), ("junk", ""), ("artist:999999", ""), ("album:1x", "queue")] {
            let refused = try await rig.krunner("Run", "ss", id, action)
            #expect(refused.result.status != 0 && !refused.result.stderr.isEmpty, "\(id) \(action)")
        }
        #expect(try await rig.krunner("Match", "s", String(repeating: "\"*( ", count: 20_000)).result.status == 0)
        #expect(try await matches(rig, "Artist 01").map(\.id) == found.map(\.id))
        _ = await rig.rig.stop()
    }
}
