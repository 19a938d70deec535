import Foundation
import Model
import Playback

/// Reads a player's events in order, for tests that wait for "the next event like this".
final class EventLog: @unchecked Sendable {
    // Used from one test task at a time.
    private var iterator: AsyncStream<PlayerEvent>.Iterator
    private(set) var seen: [PlayerEvent] = []

    init(_ player: Player) {
        iterator = player.subscribe().makeAsyncIterator()
    }

    /// The next event `matches` accepts; events before it are kept in `seen`.
    func next(_ what: String, _ matches: (PlayerEvent) -> Bool) async throws -> PlayerEvent {
        while let event = await iterator.next() {
            seen.append(event)
            if matches(event) { return event }
        }
        throw EventLogError(description: "events ended before \(what); saw \(seen)")
    }

    func trackStarted(_ entry: QueueEntry? = nil) async throws -> (QueueEntry, Double) {
        var found: (QueueEntry, Double)?
        _ = try await next("a track start") { event in
            guard case .trackStarted(let started, _, let seconds) = event.change, entry == nil || started.id == entry?.id else { return false }
            found = (started, seconds)
            return true
        }
        guard let found else { throw EventLogError(description: "no track start") }
        return found
    }

    func status(_ status: PlaybackStatus) async throws {
        _ = try await next("status \(status)") { event in
            if case .statusChanged(status) = event.change { return true }
            return false
        }
    }
}

struct EventLogError: Error, CustomStringConvertible {
    let description: String
}
