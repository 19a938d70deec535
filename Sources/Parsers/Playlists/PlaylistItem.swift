import FoundationEssentials

/// One entry of a playlist file: where to play it from and what the playlist says about it.
package struct PlaylistItem: Sendable, Equatable {
    package var url: URL
    /// Further URLs of the same entry, to try in order when `url` does not play: XSPF's several
    /// `<location>`s of a track, ASX's several `<ref>`s of an entry (mirrors, another protocol).
    /// M3U and PLS have one URL an entry, so theirs is empty.
    package var alternatives: [URL]
    package var title: String?
    /// The artist or author the list names apart from the title (XSPF's `<creator>`, ASX's
    /// `<author>`); M3U and PLS have no such field.
    package var creator: String?
    /// Seconds; nil when the playlist does not know (M3U's and PLS's −1).
    package var duration: Double?

    package init(url: URL, alternatives: [URL] = [], title: String? = nil, creator: String? = nil, duration: Double? = nil) {
        self.url = url
        self.alternatives = alternatives
        self.title = title
        self.creator = creator
        self.duration = duration
    }

    /// Every URL of the entry, in the order to try them.
    package var urls: [URL] { [url] + alternatives }
}
