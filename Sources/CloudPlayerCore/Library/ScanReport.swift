/// What one scan of one source did, for `cloudplayerctl scan` and the log.
public struct ScanReport: Sendable, Equatable {
    public var source: String
    public var folders = 0
    public var tracks = 0
    /// Tracks new or changed since the last scan, whose tags were read.
    public var tagsRead = 0
    /// Tracks the last scan had and this one did not find.
    public var gone = 0
    public var playlists = 0
    /// Bytes fetched to read tags (heads and tails; whole playlist files and feeds not counted).
    public var bytesFetched: Int64 = 0
    /// Folders that could not be listed, files that could not be read, links refused: one line each.
    public var problems: [String] = []
    /// The source could not be reached at all.
    public var failed = false

    public init(source: String) {
        self.source = source
    }
}
