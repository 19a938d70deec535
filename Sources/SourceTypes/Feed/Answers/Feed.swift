/// A podcast as its feed describes it: what the library shows as a folder of episodes.
package struct Feed: Sendable, Equatable {
    package var title: String
    package var author: String?
    /// Episodes with an audio enclosure, newest first.
    package var items: [FeedItem]
}
