import Base
import Foundation

/// The folder of cached downloads: one `SparseCacheEntry` per resource, named by a hash of its
/// address (never the address itself), trimmed least-recently-used first to stay under a limit.
///
/// The folder is the user's alone (0700) and its files 0600; entries open with `O_NOFOLLOW`, so
/// a symlink planted there is not followed out of it.
package final class SparseCache: @unchecked Sendable {
    package let directory: URL
    package let limit: Int64
    /// Bytes on disk, as of the last scan plus what was written since.
    private let usage = Locked<Int64?>(nil)

    package init(directory: URL, limit: Int64) {
        self.directory = directory
        self.limit = limit
    }

    /// The entry name and check value for a track's location (its one spelling, `TrackLocation.uri`,
    /// which carries no credentials): two hashes of it.
    package static func identity(of location: String) -> (name: String, check: String) {
        (FNVHash.hex(FNVHash.hash(location.utf8)), FNVHash.hex(FNVHash.hash(location.utf8.reversed(), basis: FNVHash.alternateBasis)))
    }

    /// Makes sure the folder exists and is private.
    package func prepare() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
    }

    package func stored(name: String) -> (length: Int64, validator: String, check: String, ranges: ByteRanges)? {
        SparseCacheEntry.stored(directory: directory, name: name)
    }

    package func entry(name: String, check: String, length: Int64, validator: String) throws -> SparseCacheEntry {
        try prepare()
        return try SparseCacheEntry(directory: directory, name: name, check: check, length: length, validator: validator)
    }

    package func remove(name: String) {
        SparseCacheEntry.remove(directory: directory, name: name)
        usage.withLock { $0 = nil }
    }

    /// Counts bytes written, for `trimIfNeeded`.
    package func didWrite(_ bytes: Int) {
        usage.withLock { total in total = total.map { $0 + Int64(bytes) } }
    }

    /// Trims if the cache may have grown past its limit (or was never measured).
    package func trimIfNeeded(keeping protected: @autoclosure () -> Set<String>) {
        if usage.withLock({ $0.map { $0 > limit } ?? true }) { trim(keeping: protected()) }
    }

    /// Deletes least recently used entries, except `protected` ones, until the cache is under 90 %
    /// of its limit (so trimming does not run on every write).
    package func trim(keeping protected: Set<String>) {
        var entries = scan()
        var total = entries.reduce(0) { $0 + $1.bytes }
        if total > limit {
            entries.sort { $0.used < $1.used }
            for entry in entries where total > limit * 9 / 10 && !protected.contains(entry.name) {
                SparseCacheEntry.remove(directory: directory, name: entry.name)
                total -= entry.bytes
            }
        }
        usage.withLock { $0 = total }
    }

    /// Entries on disk: name, bytes really allocated (the data file is sparse), last use.
    package func scan() -> [(name: String, bytes: Int64, used: Double)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".data") }.compactMap { file in
            var info = stat()
            guard lstat(directory.appendingPathComponent(file).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return (String(file.dropLast(5)), Int64(info.st_blocks) * 512,
                    Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
    }
}
