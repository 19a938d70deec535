import Foundation
import Library
import Model
import Testing

/// Play order: queue order, loops, shuffle.
@Suite struct LibraryOrderTests {
    private func library(_ count: Int) async -> (LibraryActor, [QueueEntry]) {
        let library = LibraryActor()
        let entries = await library.enqueue((1...count).map { URL(fileURLWithPath: "/music/\($0).mp3") })
        return (library, entries)
    }

    @Test("without a loop the queue ends; Next and the automatic advance agree")
    func noLoop() async {
        let (library, e) = await library(3)
        #expect(await library.entry(after: e[0].id) == e[1])
        #expect(await library.entry(after: e[2].id) == nil)
        #expect(await library.entry(after: e[2].id, automatically: true) == nil)
        #expect(await library.entry(before: e[0].id) == nil)
    }

    @Test("a track loop repeats the track when it ends, but Next moves on (and wraps)")
    func trackLoop() async {
        let (library, e) = await library(3)
        await library.setLoop(.track)
        #expect(await library.entry(after: e[1].id, automatically: true) == e[1])
        #expect(await library.entry(after: e[1].id) == e[2])
        #expect(await library.entry(after: e[2].id) == e[0])
    }

    @Test("a playlist loop wraps both ways")
    func playlistLoop() async {
        let (library, e) = await library(3)
        await library.setLoop(.playlist)
        #expect(await library.entry(after: e[2].id, automatically: true) == e[0])
        #expect(await library.entry(before: e[0].id) == e[2])
    }

    @Test("shuffle keeps the current track first and plays every other once; off restores queue order")
    func shuffle() async {
        let (library, e) = await library(20)
        await library.setShuffle(true, current: e[5].id)
        var seen = [e[5]]
        var cursor = e[5]
        while let next = await library.entry(after: cursor.id) {
            seen.append(next)
            cursor = next
        }
        #expect(seen.count == 20)
        #expect(Set(seen.map(\.id)) == Set(e.map(\.id)))
        #expect(seen.map(\.id) != e.map(\.id))  // 1 in 19! to fail by chance
        await library.setShuffle(false, current: e[5].id)
        #expect(await library.entry(after: e[5].id) == e[6])
    }
}
