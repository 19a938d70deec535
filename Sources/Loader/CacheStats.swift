/// What the cache holds, for `cloudplayerctl cache stats`.
package struct CacheStats: Sendable, Equatable {
    package var entries: Int
    /// Bytes on disk (data files are sparse: what is really allocated).
    package var bytes: Int64
    package var limit: Int64
    /// Entries that are never evicted: in use, or in a pinned playlist.
    package var protectedEntries: Int
    package var protectedBytes: Int64
    package var directory: String
}
