import Base
import FoundationEssentials
import Glibc
import Model

/// The folder of cached downloads: one `SparseCacheEntry` per resource, named by a hash of its
/// address (never the address itself), trimmed least-recently-used first to stay under a limit.
///
/// The folder is the user's alone (0700) and its files 0600; entries open with `O_NOFOLLOW`, so
/// a symlink planted there is not followed out of it.
package final class SparseCache: @unchecked Sendable {
    package let directory: URL
    /// The most it may hold; a reload may change it.
    package var limit: Int64 { limitValue.withLock { $0 } }
    private let limitValue: Locked<Int64>
    /// Bytes on disk, as of the last scan plus what was written since.
    private let usage = Locked<Int64?>(nil)
    /// The folder was made (and made private) by this run.
    private let prepared = Locked(false)

    package init(directory: URL, limit: Int64) {
        self.directory = directory
        limitValue = Locked(limit)
    }

    /// A new limit (the config reloaded): the next `trimIfNeeded` measures again and trims to it.
    package func setLimit(_ limit: Int64) {
        limitValue.withLock { $0 = limit }
        usage.withLock { $0 = nil }
    }

    /// The entry name and check value for a track's location (its one spelling, `TrackLocation.uri`,
    /// which carries no credentials): two hashes of it.
    package static func identity(of location: String) -> (name: String, check: String) {
        (FNVHash.hex(FNVHash.hash(location.utf8)), FNVHash.hex(FNVHash.hash(location.utf8.reversed(), basis: FNVHash.alternateBasis)))
    }

    package func stored(name: String) -> SparseCacheEntry.Record? {
        SparseCacheEntry.stored(directory: directory, name: name)
    }

    /// Opens the entry `name`; `stored`: its record as the caller read it (nil: none, or not to
    /// be used). The folder is made private once a run, and made again if it vanished.
    package func entry(name: String, check: String, length: Int64, validator: String,
                       stored: SparseCacheEntry.Record?) throws -> SparseCacheEntry {
        func open() throws -> SparseCacheEntry {
            try SparseCacheEntry(directory: directory, name: name, check: check, length: length, validator: validator, stored: stored)
        }
        if !prepared.withLock({ $0 }) {
            try SparseCacheEntry.makeFolder(directory)
            prepared.withLock { $0 = true }
            return try open()
        }
        do {
            return try open()
        } catch LoaderError.notFound {
            try SparseCacheEntry.makeFolder(directory)  // removed while we ran (the user cleared ~/.cache)
            return try open()
        }
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
    /// The names of the entries it removed.
    @discardableResult
    package func trimIfNeeded(keeping protected: @autoclosure () -> Set<String>) -> Set<String> {
        let limit = limit
        guard usage.withLock({ $0.map { $0 > limit } ?? true }) else { return [] }
        return trim(keeping: protected())
    }

    /// Deletes least recently used entries, except `protected` ones, until the cache is under 90 %
    /// of its limit (so trimming does not run on every write); returns the names it removed.
    @discardableResult
    package func trim(keeping protected: Set<String>) -> Set<String> {
        let limit = limit
        var entries = scan()
        var total = entries.reduce(0) { $0 + $1.bytes }
        var removed: Set<String> = []
        if total > limit {
            entries.sort { $0.used < $1.used }
            for entry in entries where total > limit * 9 / 10 && !protected.contains(entry.name) {
                SparseCacheEntry.remove(directory: directory, name: entry.name)
                total -= entry.bytes
                removed.insert(entry.name)
            }
        }
        usage.withLock { $0 = total }
        return removed
    }

    /// A record's temporary file untouched this long was left by a crash (a record is written in
    /// milliseconds): the scan removes it.
    package static let staleTemporaryAge: Double = 600

    /// Entries on disk: name, bytes really allocated (the data file is sparse), last use. Sweeps
    /// the temporary files of record writes a crash left behind (`staleTemporaryAge`).
    package func scan() -> [(name: String, bytes: Int64, used: Double)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let now = Date().timeIntervalSince1970
        for file in names where AtomicFile.isTemporary(file) {
            var info = stat()
            let path = directory.appendingPathComponent(file).path
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  now - Double(info.st_mtim.tv_sec) > Self.staleTemporaryAge else { continue }
            unlink(path)
        }
        return names.filter { $0.hasSuffix(".data") }.compactMap { file in
            var info = stat()
            guard lstat(directory.appendingPathComponent(file).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return (String(file.dropLast(5)), Int64(info.st_blocks) * 512,
                    Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
    }
}
