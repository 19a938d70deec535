/// What the cache holds, for `cloudplayerctl cache stats`.
public struct CacheStats: Sendable, Equatable {
    public var entries: Int
    /// Bytes on disk (data files are sparse: what is really allocated).
    public var bytes: Int64
    public var limit: Int64
    /// Entries that are never evicted: in use, or in a pinned playlist.
    public var pinnedEntries: Int
    public var pinnedBytes: Int64
    public var directory: String
}
