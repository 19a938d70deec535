/// Where the listener is: which track, and how far into it.
public struct PlaybackPosition: Sendable, Equatable {
    public var entry: QueueEntry
    public var seconds: Double

    public init(entry: QueueEntry, seconds: Double) {
        self.entry = entry
        self.seconds = seconds
    }
}
