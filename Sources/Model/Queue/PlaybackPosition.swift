/// Where the listener is: which track, and how far into it.
package struct PlaybackPosition: Sendable, Equatable {
    package var entry: QueueEntry
    package var seconds: Double

    package init(entry: QueueEntry, seconds: Double) {
        self.entry = entry
        self.seconds = seconds
    }
}
