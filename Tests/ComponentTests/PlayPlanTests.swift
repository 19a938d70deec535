import Foundation
import Model
import Playback
import Testing

/// What the pipeline plays after a track that ended by itself, decided from the plan alone — the
/// queue, the settings, stop-after — with no player to ask.
@Suite struct PlayPlanTests {
    private func plan(_ durations: [Double?], settings: PlaybackSettings = PlaybackSettings()) -> (PlayPlan, [QueueEntry]) {
        var queue = PlayQueue()
        let entries = queue.add(durations.enumerated().map { index, duration in
            QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/music/\(index).mp3")), metadata: TrackMetadata(duration: duration))
        })
        return (PlayPlan(queue: queue, settings: settings), entries)
    }

    @Test("the next entry follows from its start, its tags to be read; nothing follows the last")
    func follows() throws {
        let (plan, e) = plan([180, 200])
        let next = try #require(plan.step(after: e[0].id))
        #expect(next.entry == e[1] && next.start == 0 && next.readingTags)
        #expect(plan.step(after: e[1].id) == nil)
    }

    @Test("a track loop plays the same entry again, its tags known")
    func trackLoop() throws {
        var (plan, e) = plan([180, 200])
        plan.queue.loop = .track
        let again = try #require(plan.step(after: e[0].id))
        #expect(again.entry == e[0] && !again.readingTags)
    }

    @Test("stop-after: nothing follows that entry, the others go on")
    func stopAfter() {
        var (plan, e) = plan([180, 200, 220])
        plan.stopAfter = e[0].id
        #expect(plan.step(after: e[0].id) == nil)
        #expect(plan.step(after: e[1].id)?.entry == e[2])
    }

    @Test("a long track that follows starts a little before where it was left; a heard one from its start")
    func resumes() throws {
        var queue = PlayQueue()
        let e = queue.add([
            QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/pod/1.mp3")), metadata: TrackMetadata(duration: 60)),
            QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/pod/2.mp3")), metadata: TrackMetadata(duration: 3600, resumeAt: 1200)),
            QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/pod/3.mp3")), metadata: TrackMetadata(duration: 3600, resumeAt: 900, played: true)),
        ])
        let plan = PlayPlan(queue: queue, settings: PlaybackSettings(resumeLongerThan: 600))
        #expect(try #require(plan.step(after: e[0].id)).start == 1195)
        #expect(try #require(plan.step(after: e[1].id)).start == 0)
    }

    @Test("with replaygain auto, a track between tracks of its own album gets album gain")
    func albumRun() throws {
        var queue = PlayQueue()
        func item(_ name: String, album: String) -> QueueItem {
            var tags = TrackTags()
            tags.album = album
            tags.artist = "A"
            return QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/m/\(name).mp3")), metadata: TrackMetadata(tags: tags))
        }
        let e = queue.add([item("1", album: "X"), item("2", album: "X"), item("3", album: "Y")])
        let plan = PlayPlan(queue: queue, settings: PlaybackSettings(loudness: ReplayGainSettings(mode: .auto)))
        #expect(try #require(plan.step(after: e[0].id)).inAlbumRun)
        #expect(try #require(plan.step(after: e[1].id)).inAlbumRun == false)
    }
}
