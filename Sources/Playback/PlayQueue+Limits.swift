import Base
import Model

/// How much the queue may hold, in entries and in bytes of its locations' text.
///
/// The queue travels whole in every `PlayerSnapshot` (MPRIS's track list, Manager1's QueueList)
/// and is saved whole in the state file; without a limit one session-bus client, or a feed's
/// playlist of 100,000 items, grew the daemon past 700 MB. 20,000 entries is more than anyone
/// queues by hand or a library playlist holds (over 1,300 hours of four-minute tracks); 8 MiB of
/// location text gives each of them 419 bytes on average — a long cloud URL is about 200 — yet
/// keeps 20,000 locations near D-Bus's length limit from taking gigabytes. Checked where clients'
/// requests come in (`QueueIntake`) and by the player itself.
extension PlayQueue {
    package static let maxEntries = 20_000
    package static let maxLocationBytes = 8 << 20

    /// Why `items` cannot join the queue — added to it, or `replacing` it; nil when they can.
    package func overflow(adding items: [QueueItem], replacing: Bool = false) -> QueueOverflow? {
        overflow(adding: items.count, bytes: items.reduce(0) { $0 + $1.location.uri.utf8.count }, replacing: replacing)
    }

    /// The same for `count` items whose locations' text takes `bytes` (at least: a first look at
    /// a request before its references are looked up).
    package func overflow(adding count: Int, bytes: Int, replacing: Bool = false) -> QueueOverflow? {
        let entries = (replacing ? 0 : self.entries.count) + count
        let total = (replacing ? 0 : locationBytes) + bytes
        guard entries > Self.maxEntries || total > Self.maxLocationBytes else { return nil }
        return QueueOverflow(entries: replacing ? 0 : self.entries.count, adding: count,
                             tooManyEntries: entries > Self.maxEntries)
    }
}

/// Items that would take the queue past `PlayQueue`'s limits: what it says, once, whichever
/// front refuses them.
package struct QueueOverflow: Error, Equatable, CustomStringConvertible {
    /// Entries in the queue now (0 when it would be replaced).
    package var entries: Int
    /// Entries asked for.
    package var adding: Int
    /// Over the limit in entries (else in bytes).
    package var tooManyEntries: Bool

    package var description: String {
        let limit = tooManyEntries
            ? "\(PlayQueue.maxEntries) tracks"
            : "\(PlayQueue.maxLocationBytes >> 20) MiB of locations"
        return "the queue is full: it holds at most \(limit); it has \(entries.counted("track")) and \(adding) more were asked for"
    }
}
