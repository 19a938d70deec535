import Foundation
import Model

/// What the daemon saves so it comes back where it was after a restart or a crash: the queue,
/// the current track and position, volume, loop and shuffle, the sleep timer and stop-after. Locations only — never
/// credentials (queued URLs carry none).
package struct PlaybackState: Codable, Sendable, Equatable {
    package var queue: [String]
    /// Index into `queue` of the current track.
    package var current: Int?
    package var position: Double
    package var volume: Double
    package var loop: String
    package var shuffle: Bool
    /// The sleep timer's end (absent in files from before it existed, as the next one is).
    package var sleepAt: Date?
    package var stopAfterCurrent: Bool?

    package init(queue: [String] = [], current: Int? = nil, position: Double = 0, volume: Double = 1,
                loop: String = LoopMode.none.rawValue, shuffle: Bool = false, sleepAt: Date? = nil, stopAfterCurrent: Bool? = nil) {
        self.queue = queue
        self.current = current
        self.position = position
        self.volume = volume
        self.loop = loop
        self.shuffle = shuffle
        self.sleepAt = sleepAt
        self.stopAfterCurrent = stopAfterCurrent
    }
}
