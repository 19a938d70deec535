import Foundation

/// One place in the play queue. The same file queued twice is two entries with two ids, so MPRIS
/// track ids and "what is playing" never confuse them. An entry is the same entry whatever has
/// been learnt of it since: equality and hashing go by id and location, not by metadata.
package struct QueueEntry: Sendable, Hashable, Identifiable {
    package let id: UInt64
    package let url: URL
    /// What is known of it: the library's tags when it was queued, its own once it has played.
    package var metadata: TrackMetadata

    package static func == (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
        lhs.id == rhs.id && lhs.url == rhs.url
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(url)
    }

    package init(id: UInt64, url: URL, metadata: TrackMetadata = TrackMetadata()) {
        self.id = id
        self.url = url
        self.metadata = metadata
    }

    /// The location to show others (MPRIS `xesam:url`): without user, password or query, which
    /// may carry a token.
    package var publicURL: URL { Self.publicURL(of: url) }

    /// `url` as it may be shown: without user, password, query or fragment.
    package static func publicURL(of url: URL) -> URL {
        guard !url.isFileURL, var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.url ?? url
    }

    /// What to call the track: its title, else its file name — never a URL's user or password.
    package var title: String {
        metadata.tags.title ?? displayName
    }

    /// What to call the track in messages: the file name, never a URL's user or password.
    package var displayName: String { Self.displayName(of: url) }

    /// What to call the track at `url` in messages: the file name, never a URL's user or password.
    package static func displayName(of url: URL) -> String {
        let name = url.lastPathComponent
        return name.isEmpty ? (url.host ?? "track") : name
    }
}
