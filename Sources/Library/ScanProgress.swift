/// How far the scan under way has got: what `cloudplayerctl scan` draws its bar from.
package struct ScanProgress: Sendable, Equatable {
    package var source: String
    /// Folders listed, and folders found so far (the bar's end grows as the walk finds more).
    package var foldersDone = 0
    package var foldersFound = 1
    /// Folders the last finished scan of the source listed: the bar's end from its first moment,
    /// where the walk has not yet found them all. Nil for a first scan (no bar is drawn).
    package var foldersBefore: Int?
    package var tracks = 0
    /// Tracks whose tags were read (new or changed); the others were unchanged.
    package var tagsRead = 0
    package var bytesFetched: Int64 = 0
}
