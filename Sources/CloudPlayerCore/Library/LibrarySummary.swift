import Foundation

/// Counts for `status` and `sources`.
public struct LibrarySummary: Sendable, Equatable {
    public struct Source: Sendable, Equatable {
        public var name: String
        public var tracks: Int
        public var gone: Int
        public var lastScan: Date?
        public var problems: String?
    }

    public var tracks: Int
    public var playlists: Int
    public var sources: [Source]
}
