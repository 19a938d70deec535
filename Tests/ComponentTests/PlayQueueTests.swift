import Foundation
import Model
import Playback
import Testing

/// Play order: queue order, loops, shuffle — the queue as a value, as the player owns it.
@Suite struct PlayQueueTests {
    private func queue(_ count: Int) -> (PlayQueue, [QueueEntry]) {
        var queue = PlayQueue()
        let entries = queue.add((1...count).map { QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/music/\($0).mp3"))) })
        return (queue, entries)
    }

    @Test("without a loop the queue ends; Next and the automatic advance agree")
    func noLoop() {
        let (queue, e) = queue(3)
        #expect(queue.entry(after: e[0].id) == e[1])
        #expect(queue.entry(after: e[2].id) == nil)
        #expect(queue.entry(after: e[2].id, automatically: true) == nil)
        #expect(queue.entry(before: e[0].id) == nil)
    }

    @Test("a track loop repeats the track when it ends, but Next moves on (and wraps)")
    func trackLoop() {
        var (queue, e) = queue(3)
        queue.loop = .track
        #expect(queue.entry(after: e[1].id, automatically: true) == e[1])
        #expect(queue.entry(after: e[1].id) == e[2])
        #expect(queue.entry(after: e[2].id) == e[0])
    }

    @Test("a playlist loop wraps both ways")
    func playlistLoop() {
        var (queue, e) = queue(3)
        queue.loop = .playlist
        #expect(queue.entry(after: e[2].id, automatically: true) == e[0])
        #expect(queue.entry(before: e[0].id) == e[2])
    }

    @Test("shuffle keeps the current track first and plays every other once; off restores queue order")
    func shuffle() {
        var (queue, e) = queue(20)
        queue.setCurrent(e[5])
        queue.setShuffle(true)
        var seen = [e[5]]
        var cursor = e[5]
        while let next = queue.entry(after: cursor.id) {
            seen.append(next)
            cursor = next
        }
        #expect(seen.count == 20)
        #expect(Set(seen.map(\.id)) == Set(e.map(\.id)))
        // The other 19 neither in queue order nor in it rotated from the current one (1 in 19!/2
        // to fail by chance).
        let rest = seen.dropFirst().map(\.id)
        #expect(rest != e.filter { $0.id != e[5].id }.map(\.id))
        #expect(rest != (e[6...] + e[..<5]).map(\.id))
        queue.setShuffle(false)
        #expect(queue.entry(after: e[5].id) == e[6])
    }

    @Test("entries go where asked; ids are never reused; a removed entry is gone from both orders")
    func placement() {
        var (queue, e) = queue(3)
        let first = queue.add([QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/music/a.mp3")))], at: .start)[0]
        let middle = queue.add([QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/music/b.mp3")))], at: .after(e[0].id))[0]
        #expect(queue.entries.map(\.id) == [first.id, e[0].id, middle.id, e[1].id, e[2].id])
        #expect(queue.playOrder == queue.entries.map(\.id))
        let removed = queue.remove(middle.id)
        let removedAgain = queue.remove(middle.id)
        #expect(removed && !removedAgain)
        #expect(queue.entry(after: e[0].id) == e[1])
        let later = queue.add([QueueItem(location: TrackLocation(url: URL(fileURLWithPath: "/music/c.mp3")))])[0]
        #expect(Set(queue.entries.map(\.id)).count == queue.entries.count)
        #expect(later.id > middle.id)
    }

    @Test("what is learnt of an entry while it plays stays with it, current or not")
    func metadata() {
        var (queue, e) = queue(2)
        queue.setCurrent(e[0])
        let learnt = TrackMetadata(tags: TrackTags(title: "Heard", artist: "Someone"), duration: 12)
        queue.update(e[0].id, metadata: learnt)
        #expect(queue.current?.metadata == learnt)
        #expect(queue.entry(id: e[0].id)?.title == "Heard")
        queue.setCurrent(e[1])
        #expect(queue.entry(id: e[0].id)?.metadata == learnt)
        #expect(queue.hasNext == false)
        queue.loop = .playlist
        #expect(queue.hasNext)
    }

    @Test("what a track's own tags say fills what the library or a feed did not know; what they knew stays; the decoder's length wins")
    func heardFillsKnown() {
        let feed = TrackMetadata(tags: TrackTags(title: "Episode 12: Rivers", artist: "The Show", album: "The Show", genre: "Podcast"),
                                 duration: 1800)
        let heard = TrackMetadata(tags: TrackTags(title: "ep12_final_v3", album: "Other", trackNumber: 12, year: 2024), duration: 1799.96)
        let merged = feed.filled(from: heard)
        #expect(merged.tags.title == "Episode 12: Rivers" && merged.tags.artist == "The Show" && merged.tags.album == "The Show")
        #expect(merged.tags.trackNumber == 12 && merged.tags.year == 2024 && merged.tags.genre == "Podcast")
        #expect(merged.duration == 1799.96)
        #expect(TrackMetadata().filled(from: heard) == TrackMetadata(tags: heard.tags, duration: heard.duration))
        #expect(feed.filled(from: TrackMetadata()).duration == 1800)
    }
}
