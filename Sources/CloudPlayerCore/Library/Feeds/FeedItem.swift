import Foundation

/// One episode of a feed: its audio enclosure and what the feed says about it, enough to list
/// it and stream it without fetching anything else.
struct FeedItem: Sendable, Equatable {
    var title: String
    /// The enclosure, resolved against the feed's URL; always http or https.
    var url: URL
    var mimeType: String?
    var length: Int64?
    var published: Date?
    var guid: String?
    /// Seconds, from `itunes:duration`.
    var duration: Double?
    /// The episode's picture, else the feed's.
    var imageURL: URL?
}
