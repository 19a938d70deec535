import DBus

extension Manager1 {
    /// What the cache holds, its limit, and what is kept from eviction.
    package struct CacheStats: BusRecord, Equatable {
        package var entries: UInt32
        package var bytes: Int64
        package var limit: Int64
        package var pinnedEntries: UInt32
        package var pinnedBytes: Int64
        package var directory: String

        package init(entries: UInt32, bytes: Int64, limit: Int64, pinnedEntries: UInt32, pinnedBytes: Int64, directory: String) {
            self.entries = entries
            self.bytes = bytes
            self.limit = limit
            self.pinnedEntries = pinnedEntries
            self.pinnedBytes = pinnedBytes
            self.directory = directory
        }
    }

    /// A track's length and the byte ranges of it in the cache.
    package struct CachedRanges: BusRecord, Equatable {
        package var url: String
        /// -1 when nothing of it is cached.
        package var length: Int64
        package var cached: Int64
        /// start, end, start, end, …
        package var ranges: [Int64]

        package init(url: String, length: Int64, cached: Int64, ranges: [Int64]) {
            self.url = url
            self.length = length
            self.cached = cached
            self.ranges = ranges
        }
    }
}
