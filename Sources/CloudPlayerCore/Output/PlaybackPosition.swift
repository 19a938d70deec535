/// Where the listener is: which track, and which of its frames is being heard.
public struct PlaybackPosition: Sendable, Equatable {
    public var entry: QueueEntry
    public var info: TrackInfo
    public var frame: Int64

    public var seconds: Double { Double(frame) / Double(info.format.sampleRate) }
}
