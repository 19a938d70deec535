import FoundationEssentials

/// One episode of a feed: its audio enclosure and what the feed says about it, enough to list
/// it and stream it without fetching anything else.
package struct FeedItem: Sendable, Equatable {
    package var title: String
    /// The enclosure, resolved against the feed's URL; always http or https.
    package var url: URL
    package var mimeType: String?
    package var length: Int64?
    package var published: Date?
    package var guid: String?
    /// Seconds, from `itunes:duration`.
    package var duration: Double?
    /// The episode's picture, else the feed's.
    package var imageURL: URL?
    /// Its Podcasting 2.0 chapters file (`<podcast:chapters>`).
    package var chaptersURL: URL?

    package init(title: String, url: URL, mimeType: String? = nil, length: Int64? = nil, published: Date? = nil, guid: String? = nil, duration: Double? = nil, imageURL: URL? = nil,
                chaptersURL: URL? = nil) {
        self.title = title
        self.url = url
        self.mimeType = mimeType
        self.length = length
        self.published = published
        self.guid = guid
        self.duration = duration
        self.imageURL = imageURL
        self.chaptersURL = chaptersURL
    }
}
