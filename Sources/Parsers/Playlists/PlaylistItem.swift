import FoundationEssentials

/// One entry of a playlist file: where to play it from and what the playlist says about it.
package struct PlaylistItem: Sendable, Equatable {
    package var url: URL
    package var title: String?
    /// Seconds; nil when the playlist does not know (M3U's and PLS's −1).
    package var duration: Double?

    package init(url: URL, title: String? = nil, duration: Double? = nil) {
        self.url = url
        self.title = title
        self.duration = duration
    }
}
