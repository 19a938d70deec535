import FoundationEssentials
import Model
import Playback

/// What the daemon saves of its queue and settings, so it comes back where it was after a restart
/// or a crash: the queue, volume, loop and shuffle, the sleep timer and stop-after — written only
/// when one of them changes (a long queue is not rewritten while a track plays). Where playback
/// is in the queue is a small record of its own, `PlaybackPlace`. Locations only — never
/// credentials (queued URLs carry none).
package struct PlaybackState: Codable, Sendable, Equatable {
    package var queue: [String]
    /// Where playback was, as files written before the place had a record of its own say; read,
    /// never written (`PlaybackPlace` is).
    package var current: Int?
    package var position: Double?
    package var volume: Double
    package var loop: String
    package var shuffle: Bool
    /// The sleep timer's end (absent in files from before it existed, as the next one is).
    package var sleepAt: Date?
    package var stopAfterCurrent: Bool?
    /// `sleep chapter` (absent when off): set again once the current track is back in place.
    package var sleepAtChapterEnd: Bool?
    /// The ReplayGain mode a client chose (MPD's `replay_gain_mode`), over `[playback]`'s; absent
    /// when none did.
    package var replayGain: String?
    /// The queued links remote documents named (`TrackLocation.namedBy`), by location text: they
    /// stay links after a restart — no source's credentials, not this machine's addresses.
    package var links: [String: String]?

    package init(queue: [String] = [], volume: Double = 1, loop: String = LoopMode.none.rawValue, shuffle: Bool = false,
                 sleepAt: Date? = nil, stopAfterCurrent: Bool? = nil) {
        self.queue = queue
        self.volume = volume
        self.loop = loop
        self.shuffle = shuffle
        self.sleepAt = sleepAt
        self.stopAfterCurrent = stopAfterCurrent
    }

    /// Where playback was in this queue: the place record when it names this queue's track, else
    /// what an older file kept itself.
    func place(_ saved: PlaybackPlace?) -> (index: Int, seconds: Double)? {
        if let saved, queue.indices.contains(saved.current), queue[saved.current] == saved.location {
            return (saved.current, saved.position)
        }
        guard let current, queue.indices.contains(current) else { return nil }
        return (current, position ?? 0)
    }
}

/// Where playback is in the saved queue: the current entry (its index, and its location to be
/// sure it is still that one) and the position. Small, so it is saved every few seconds while
/// playing without rewriting the queue.
package struct PlaybackPlace: Codable, Sendable, Equatable {
    package var current: Int
    package var location: String
    package var position: Double
}

extension PlaybackState {
    /// The queue and settings of a player's state.
    init(_ snapshot: PlayerSnapshot) {
        self.init(queue: snapshot.queue.entries.map(\.location.uri), volume: snapshot.volume,
                  loop: snapshot.queue.loop.rawValue, shuffle: snapshot.queue.shuffle,
                  sleepAt: snapshot.sleepAt, stopAfterCurrent: snapshot.stopsAfterCurrent ? true : nil)
        sleepAtChapterEnd = snapshot.sleepsAtChapterEnd ? true : nil
        replayGain = snapshot.replayGainChosen?.rawValue
        let links = snapshot.queue.entries.compactMap { entry in entry.location.namedBy.map { (entry.location.uri, $0) } }
        self.links = links.isEmpty ? nil : Dictionary(links, uniquingKeysWith: { first, _ in first })
    }

    /// The saved queue's items, placed among the sources, with its links links again: off the
    /// source that named them, their own source's, else of none.
    func relinked(_ items: [QueueItem]) -> [QueueItem] {
        guard let links else { return items }
        return items.map { item in
            guard let name = links[item.location.uri] else { return item }
            let placed = item.location.source == name ? item.location : TrackLocation(uri: item.location.uri)
            return QueueItem(location: placed.named(by: name), metadata: item.metadata)
        }
    }
}

extension PlaybackPlace {
    /// Where a player's state is in its queue; nil when nothing is current.
    init?(_ snapshot: PlayerSnapshot) {
        guard let current = snapshot.current, let index = snapshot.queue.index(of: current.id) else { return nil }
        let position = snapshot.seconds()
        self.init(current: index, location: current.location.uri, position: position.isFinite ? max(0, position) : 0)
    }
}
