/// What one scan of one source did, for `cloudplayerctl scan` and the log.
package struct ScanReport: Sendable, Equatable {
    package var source: String
    package var folders = 0
    package var tracks = 0
    /// Tracks new or changed since the last scan, whose tags were read.
    package var tagsRead = 0
    /// Tracks the last scan had and this one did not find.
    package var gone = 0
    /// Tracks new, changed or back since the last scan: those written whole, and those seen
    /// unchanged that had been gone.
    package var changed = 0
    package var playlists = 0
    /// Bytes fetched to read tags (heads and tails; whole playlist files and feeds not counted).
    package var bytesFetched: Int64 = 0
    /// Folders that could not be listed, files that could not be read, links refused: one line each.
    package var problems: [String] = []
    /// The source could not be reached at all.
    package var failed = false

    package init(source: String) {
        self.source = source
    }

    /// A scan that could not start: the source failed, for this reason.
    package init(source: String, failed problem: String) {
        self.source = source
        failed = true
        problems = [problem]
    }

    /// Whether the library's clients see other tracks than before the scan (MPD's `database`).
    package var libraryChanged: Bool { changed > 0 || gone > 0 }
}
