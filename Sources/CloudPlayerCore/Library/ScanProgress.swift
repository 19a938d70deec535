/// How far the scan under way has got: what `cloudplayerctl scan` draws its bar from.
public struct ScanProgress: Sendable, Equatable {
    public var source: String
    /// Folders listed, and folders found so far (the bar's end grows as the walk finds more).
    public var foldersDone = 0
    public var foldersFound = 1
    public var tracks = 0
    /// Tracks whose tags were read (new or changed); the others were unchanged.
    public var tagsRead = 0
    public var bytesFetched: Int64 = 0
}
