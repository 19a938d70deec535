/// What happens at the end of a track or of the queue (MPRIS `LoopStatus`).
package enum LoopMode: String, Sendable, CaseIterable {
    /// Play through the queue once.
    case none = "None"
    /// Repeat the current track when it ends by itself (Next still moves on).
    case track = "Track"
    /// After the last track, start again from the first.
    case playlist = "Playlist"
}
