import Cache
import Foundation
import Model
import Testing
import TestSupport

/// The sparse cache's on-disk entry: what survives a reopen, and what must not.
@Suite struct SparseCacheEntryTests {
    private let content = Fixtures.noise(count: 100_000, seed: 42)

    private func write(_ entry: SparseCacheEntry, _ range: Range<Int>) throws {
        try content[range].withUnsafeBytes { try entry.write($0, at: Int64(range.lowerBound)) }
    }

    private func read(_ entry: SparseCacheEntry, at offset: Int, count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = try buffer.withUnsafeMutableBytes { try entry.read(into: $0, at: Int64(offset)) }
        return Array(buffer.prefix(n))
    }

    @Test("committed ranges survive a reopen and read back the very bytes; uncommitted ones do not count")
    func commitThenReopen() throws {
        let directory = try Fixtures.shared.scratchDirectory()
        do {
            let entry = try SparseCacheEntry(directory: directory, name: "k", length: 100_000, validator: "\"v1\"")
            try write(entry, 10_000..<20_000)
            try write(entry, 50_000..<60_000)
            #expect(try read(entry, at: 15_000, count: 100) == Array(content[15_000..<15_100]))  // pending reads
            try entry.commit()
            try write(entry, 70_000..<80_000)  // never committed: as if the process died here
        }
        let reopened = try SparseCacheEntry(directory: directory, name: "k", length: 100_000, validator: "\"v1\"")
        #expect(reopened.present.ranges == [10_000..<20_000, 50_000..<60_000])
        #expect(try read(reopened, at: 10_000, count: 10_000) == Array(content[10_000..<20_000]))
        #expect(try read(reopened, at: 19_990, count: 100).count == 10)  // stops at the hole
        #expect(try read(reopened, at: 70_000, count: 100).isEmpty)      // uncommitted: not served
        #expect(!reopened.isComplete)
    }

    @Test("commits in three steps: one performed after a later one leaves the later record; a retired entry records nothing more")
    func commitSteps() throws {
        let directory = try Fixtures.shared.scratchDirectory()
        let entry = try SparseCacheEntry(directory: directory, name: "k", length: 100_000, validator: "\"v1\"")
        try write(entry, 0..<10_000)
        let first = try #require(entry.beginCommit())
        try write(entry, 10_000..<30_000)
        let second = try #require(entry.beginCommit())
        try second.perform()
        try first.perform()  // late: its record says less, and is not written over the second's
        entry.endCommit(second)
        entry.endCommit(first)
        #expect(SparseCacheEntry.stored(directory: directory, name: "k")?.ranges.ranges == [0..<30_000])
        #expect(entry.present.ranges == [0..<30_000] && entry.beginCommit() == nil, "nothing left pending")

        try write(entry, 30_000..<40_000)
        let third = try #require(entry.beginCommit())
        entry.retire()
        #expect(throws: LoaderError.self) { try third.perform() }
        #expect(SparseCacheEntry.stored(directory: directory, name: "k")?.ranges.ranges == [0..<30_000])
    }

    @Test("another version of the resource, or a damaged record, starts empty")
    func versionsAndDamage() throws {
        let directory = try Fixtures.shared.scratchDirectory()
        do {
            let entry = try SparseCacheEntry(directory: directory, name: "k", length: 100_000, validator: "\"v1\"")
            try write(entry, 0..<100_000)
            try entry.commit()
            #expect(entry.isComplete)
        }
        let changed = try SparseCacheEntry(directory: directory, name: "k", length: 100_000, validator: "\"v2\"")
        #expect(changed.present.isEmpty)
        try write(changed, 0..<1000)
        try changed.commit()
        let record = directory.appendingPathComponent("k.ranges")
        for damage in ["", "cloudplayerd-ranges 1\nlength 100000\n", "garbage\n",
                       "cloudplayerd-ranges 1\nlength 100000\nvalidator \"v2\"\n0 200000\nend\n"] {
            try Data(damage.utf8).write(to: record)
            let entry = try SparseCacheEntry(directory: directory, name: "k", length: 100_000, validator: "\"v2\"")
            #expect(entry.present.isEmpty, "record \(damage.debugDescription)")
        }
    }

    @Test("a record is not believed over a data file that was deleted, cut, or belongs to another address")
    func recordWithoutItsData() throws {
        let directory = try Fixtures.shared.scratchDirectory()
        do {
            let entry = try SparseCacheEntry(directory: directory, name: "k", check: "one", length: 100_000, validator: "v")
            try write(entry, 0..<50_000)
            try entry.commit()
        }
        #expect(try SparseCacheEntry(directory: directory, name: "k", check: "two", length: 100_000, validator: "v").present.isEmpty)
        do {
            let entry = try SparseCacheEntry(directory: directory, name: "k", check: "one", length: 100_000, validator: "v")
            try write(entry, 0..<50_000)
            try entry.commit()
        }
        truncate(directory.appendingPathComponent("k.data").path, 10_000)
        #expect(try SparseCacheEntry(directory: directory, name: "k", check: "one", length: 100_000, validator: "v").present.isEmpty)
        do {
            let entry = try SparseCacheEntry(directory: directory, name: "k", check: "one", length: 100_000, validator: "v")
            try write(entry, 0..<50_000)
            try entry.commit()
        }
        unlink(directory.appendingPathComponent("k.data").path)
        #expect(try SparseCacheEntry(directory: directory, name: "k", check: "one", length: 100_000, validator: "v").present.isEmpty)
    }

    @Test("bytes outside the resource are refused; the folder is 0700 and the files 0600")
    func boundsAndPermissions() throws {
        let directory = try Fixtures.shared.scratchDirectory().appendingPathComponent("cache")
        let entry = try SparseCacheEntry(directory: directory, name: "k", length: 1000, validator: "x")
        #expect(throws: LoaderError.self) { try content[0..<10].withUnsafeBytes { try entry.write($0, at: 995) } }
        try write(entry, 0..<10)
        try entry.commit()
        func mode(_ url: URL) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(directory) == 0o700)
        #expect(try mode(directory.appendingPathComponent("k.data")) == 0o600)
        #expect(try mode(directory.appendingPathComponent("k.ranges")) == 0o600)
    }

    @Test("the cache scan sweeps record writes a crash left behind (stale *.tmp), never a fresh one or an entry")
    func scanSweepsStaleTemporaryFiles() throws {
        let directory = try Fixtures.shared.scratchDirectory().appendingPathComponent("data")
        let cache = SparseCache(directory: directory, limit: 1 << 30)
        let entry = try cache.entry(name: "k", check: "c", length: 1000, validator: "v", stored: nil)
        try write(entry, 0..<10)
        try entry.commit()
        let stale = directory.appendingPathComponent(".k.ranges.1f2e3d.tmp")
        let fresh = directory.appendingPathComponent(".k.ranges.4c5b6a.tmp")
        for file in [stale, fresh] { #expect(FileManager.default.createFile(atPath: file.path, contents: Data("half".utf8))) }
        let old = Date().timeIntervalSince1970 - SparseCache.staleTemporaryAge - 60
        var times = [timespec(tv_sec: Int(old), tv_nsec: 0), timespec(tv_sec: Int(old), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, stale.path, &times, 0) == 0)

        let entries = cache.scan()
        #expect(entries.map(\.name) == ["k"])
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))  // may be a record being written now
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [".k.ranges.4c5b6a.tmp", "k.data", "k.ranges"])
    }

    @Test("the cache folder is made private once, and made again if it is removed while the cache runs")
    func folderPreparedOnceAndRemade() throws {
        let directory = try Fixtures.shared.scratchDirectory().appendingPathComponent("data")
        let cache = SparseCache(directory: directory, limit: 1 << 30)
        _ = try cache.entry(name: "a", check: "c", length: 10, validator: "v", stored: nil)
        var info = stat()
        #expect(stat(directory.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        try FileManager.default.removeItem(at: directory)
        let entry = try cache.entry(name: "b", check: "c", length: 10, validator: "v", stored: nil)
        try write(entry, 0..<10)
        try entry.commit()
        #expect(stat(directory.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let record = try #require(cache.stored(name: "b"))
        #expect(record.check == "c" && record.ranges.contains(0..<10))
    }
}
