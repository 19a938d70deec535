import Foundation

/// One entry of a playlist file: where to play it from and what the playlist says about it.
struct PlaylistItem: Sendable, Equatable {
    var url: URL
    var title: String?
    /// Seconds; nil when the playlist does not know (M3U's and PLS's −1).
    var duration: Double?
}
