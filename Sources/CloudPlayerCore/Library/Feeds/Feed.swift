/// A podcast as its feed describes it: what the library shows as a folder of episodes.
struct Feed: Sendable, Equatable {
    var title: String
    var author: String?
    /// Episodes with an audio enclosure, newest first.
    var items: [FeedItem]
}
