import FoundationEssentials

/// Counts for `status` and `sources`.
package struct LibrarySummary: Sendable, Equatable {
    package struct Source: Sendable, Equatable {
        package var name: String
        package var tracks: Int
        package var gone: Int
        package var lastScan: Date?
        package var problems: String?
    }

    package var tracks: Int
    package var playlists: Int
    package var sources: [Source]
}
