import Foundation

/// One place in the play queue. The same file queued twice is two entries with two ids, so MPRIS
/// track ids and "what is playing" never confuse them.
package struct QueueEntry: Sendable, Hashable, Identifiable {
    package let id: UInt64
    package let url: URL

    package init(id: UInt64, url: URL) {
        self.id = id
        self.url = url
    }

    /// The location to show others (MPRIS `xesam:url`): without user, password or query, which
    /// may carry a token.
    package var publicURL: URL {
        guard !url.isFileURL, var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.url ?? url
    }

    /// What to call the track in messages: the file name, never a URL's user or password.
    package var displayName: String {
        let name = url.lastPathComponent
        return name.isEmpty ? (url.host ?? "track") : name
    }
}
