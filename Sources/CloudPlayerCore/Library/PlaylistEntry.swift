/// One track of a playlist as it plays: its location, and what the library knows of it (nil for
/// a location no scan has found).
public struct PlaylistEntry: Sendable, Equatable {
    public var url: String
    public var title: String?
    public var track: LibraryTrack?
}
