import Foundation
import Model
import Playback
import Testing

/// The queue's limits as a value: where exactly they fall, and that replacing the queue counts
/// only what replaces it.
@Suite struct PlayQueueLimitTests {
    private func items(_ count: Int, length: Int = 20) -> [QueueItem] {
        (0..<count).map { index in
            let name = String(index).padding(toLength: max(1, length - 12), withPad: "x", startingAt: 0)
            return QueueItem(location: TrackLocation(url: URL(string: "file:///m/\(name).mp3")!))
        }
    }

    @Test("20000 entries fit and one more does not; replacing counts only the new items")
    func entries() {
        var queue = PlayQueue()
        queue.add(items(PlayQueue.maxEntries - 1))
        #expect(queue.overflow(adding: items(1)) == nil)
        let over = queue.overflow(adding: items(2))
        #expect(over?.entries == PlayQueue.maxEntries - 1 && over?.adding == 2 && over?.tooManyEntries == true)
        #expect(queue.overflow(adding: items(PlayQueue.maxEntries), replacing: true) == nil)
        #expect(queue.overflow(adding: PlayQueue.maxEntries + 1, bytes: 0, replacing: true) != nil)
    }

    @Test("8 MiB of locations' text fit and a byte more does not")
    func bytes() throws {
        let long = items(1, length: 1 << 20)
        let size = long[0].location.uri.utf8.count
        var queue = PlayQueue()
        queue.add(Array(repeating: long[0], count: PlayQueue.maxLocationBytes / size))
        let room = PlayQueue.maxLocationBytes - queue.locationBytes
        #expect(queue.overflow(adding: 0, bytes: room) == nil)
        let over = try #require(queue.overflow(adding: 1, bytes: room + 1))
        #expect(!over.tooManyEntries && over.description.contains("8 MiB of locations"))
    }
}
