import Base
import FoundationEssentials
import Glibc
import Model

/// One cached resource on disk: a sparse data file holding the bytes at their own offsets, and
/// a record of which ranges are really there.
///
/// Crash safety comes from ordering: bytes are written, `commit` syncs the data file, and only
/// then is the record replaced — atomically, by writing a new file and renaming it over the old.
/// A crash loses at most bytes written since the last commit; it never leaves the record
/// claiming bytes the data file lacks. A record that does not parse, or that belongs to another
/// version of the resource, is treated as empty. Not thread-safe: its owner locks around it —
/// all but a `Commit`'s `perform`, which is meant to run without that lock.
package final class SparseCacheEntry {
    /// What a `.ranges` file says: the resource's length, version and check, and the bytes of it
    /// the data file holds.
    package struct Record: Sendable {
        package var length: Int64
        package var validator: String
        package var check: String
        package var ranges: ByteRanges
    }

    package let length: Int64
    /// The version's text; `adopt` restates it (the same version, more of what the server says).
    package private(set) var validator: String
    /// The record must be written again though no bytes were added (`adopt`).
    private var recordChanged = false
    /// A second hash of the resource's address: a record whose name collides but whose check
    /// differs belongs to another resource and is not used.
    package let check: String
    /// Bytes recorded as present (committed).
    package private(set) var present = ByteRanges()
    /// Bytes written since the last commit: readable now, recorded at the next commit.
    private var pending = ByteRanges()
    private let dataPath: String
    private let recordPath: String
    private let descriptor: Int32
    /// Numbers the commits begun, so that a record never replaces a later one.
    private var commitsBegun = 0
    /// The number of the last record written (`Int.max` once retired); its lock is held while a
    /// commit syncs and writes, which orders the commits of this entry.
    private let recordWritten = Locked(0)

    /// Opens (or creates) the entry named `name` in `directory` — made if missing, the user's
    /// alone — for a resource of `length` bytes whose version is `validator` (ETag or
    /// Last-Modified), reading its record. Names must not reveal the resource: callers pass a
    /// hash, and another hash as `check`.
    package convenience init(directory: URL, name: String, check: String = "-", length: Int64, validator: String) throws {
        try Self.makeFolder(directory)
        try self.init(directory: directory, name: name, check: check, length: length, validator: validator,
                      stored: Self.stored(directory: directory, name: name))
    }

    /// Opens (or creates) an entry in a folder that exists, given its record as the caller read it
    /// (`stored`; nil when there is none or it is not wanted): a `SparseCache` has read it
    /// already to decide whether the copy is current, and reads no file twice.
    package init(directory: URL, name: String, check: String, length: Int64, validator: String, stored: Record?) throws {
        self.length = length
        self.validator = validator
        self.check = check
        dataPath = directory.appendingPathComponent(name + ".data").path
        recordPath = directory.appendingPathComponent(name + ".ranges").path
        let fd = open(dataPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw LoaderError.fromErrno(errno) }
        descriptor = fd
        futimens(fd, nil)  // the data file's time is the entry's last use, for LRU eviction
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int64(info.st_size) : 0
        if let stored, stored.length == length, stored.validator == Self.escape(validator),
           stored.check == check, (stored.ranges.ranges.last?.upperBound ?? 0) <= size {
            // (A data file shorter than what the record vouches for was replaced or cut: not used.)
            present = stored.ranges
        } else {
            // No record, a damaged one, or another version of the file: start empty.
            try reset()
        }
    }

    deinit {
        close(descriptor)
    }

    /// Makes `folder` if it is missing, and the user's alone (0700).
    package static func makeFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
    }

    /// What the record in `directory` says of the entry `name`, without opening it: enough to
    /// serve a cached file with no network at all.
    package static func stored(directory: URL, name: String) -> Record? {
        guard let text = try? String(contentsOfFile: directory.appendingPathComponent(name + ".ranges").path, encoding: .utf8),
              let record = parse(text) else { return nil }
        return record
    }

    /// Deletes the entry's files (an open entry keeps reading its unlinked data).
    package static func remove(directory: URL, name: String) {
        unlink(directory.appendingPathComponent(name + ".ranges").path)
        unlink(directory.appendingPathComponent(name + ".data").path)
    }

    /// How many bytes from `offset` on can be read now (committed or pending).
    package func available(from offset: Int64) -> Int64 {
        max(present.presentRun(from: offset), pending.presentRun(from: offset))
    }

    /// Bytes readable now: recorded plus written since the last commit.
    package var readable: ByteRanges {
        var all = present
        for range in pending.ranges { all.insert(range) }
        return all
    }

    /// Copies present bytes at `offset` (committed or pending) into `buffer`; returns how many,
    /// 0 if the byte at `offset` is not here.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        let run = available(from: offset)
        let count = Int(min(Int64(buffer.count), run))
        guard count > 0 else { return 0 }
        var done = 0
        while done < count {
            let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw LoaderError.readFailed("cache: \(String(cString: strerror(errno)))") }
            done += n
        }
        return done
    }

    /// Writes downloaded bytes at their offset; they count as present from the next commit.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        guard offset >= 0, offset + Int64(bytes.count) <= length else {
            throw LoaderError.readFailed("cache: bytes \(offset)+\(bytes.count) lie outside a \(length)-byte file")
        }
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw LoaderError.readFailed("cache: \(String(cString: strerror(errno)))") }
            done += n
        }
        pending.insert(offset..<(offset + Int64(bytes.count)))
    }

    /// Makes pending bytes durable, then records them: `beginCommit`, `perform` and `endCommit`
    /// in one go, with the owner's lock held throughout.
    package func commit() throws {
        guard let commit = beginCommit() else { return }
        try commit.perform()
        endCommit(commit)
    }

    /// A commit in three steps, so that the slow one — the sync, which takes seconds on a busy
    /// disk — holds neither the owner's lock nor its thread: begun with the lock (what the record
    /// will say), performed without it (the data file synced, then the record written), ended
    /// with it (the bytes count as recorded).
    package struct Commit: @unchecked Sendable {
        // The entry is only touched through `perform`, which uses what never changes and the
        // entry's own lock: safe from any thread.
        fileprivate let entry: SparseCacheEntry
        fileprivate let ranges: ByteRanges
        fileprivate let validator: String
        fileprivate let number: Int

        /// Syncs the data file and writes the record — unless a later commit (or `retire`) came
        /// first. Blocks: a thread made for waiting, without the owner's lock.
        package func perform() throws { try entry.perform(self) }

        /// Whether it is a commit of `entry`.
        package func isOf(_ entry: SparseCacheEntry) -> Bool { self.entry === entry }
    }

    /// What the next record says (the present bytes and those pending), or nil if it would say
    /// nothing new. With the owner's lock.
    package func beginCommit() -> Commit? {
        guard !pending.isEmpty || recordChanged else { return nil }
        var next = present
        for range in pending.ranges { next.insert(range) }
        recordChanged = false
        commitsBegun += 1
        return Commit(entry: self, ranges: next, validator: validator, number: commitsBegun)
    }

    /// A performed commit's bytes count as recorded. With the owner's lock.
    package func endCommit(_ commit: Commit) {
        for range in commit.ranges.ranges { present.insert(range) }
        pending = ByteRanges(pending.ranges.flatMap { present.missing(in: $0) })
    }

    /// No record is written for this entry any more (its file was removed, or replaced by
    /// another version's): waits for a commit being performed, so that none lands after.
    package func retire() {
        recordWritten.withLock { $0 = Int.max }
    }

    private func perform(_ commit: Commit) throws {
        try recordWritten.withLock { written in
            // Retired: nothing is recorded any more, and the commit did not happen.
            guard written != Int.max else { throw LoaderError.readFailed("cache: the entry is no longer recorded") }
            guard commit.number > written else { return }  // a later record says more
            do {
                guard fdatasync(descriptor) == 0 else { throw LoaderError.readFailed("cache: \(String(cString: strerror(errno)))") }
                try saveRecord(commit.ranges, validator: commit.validator)
            } catch {
                // A failed sync is reported once: the next one may succeed without those bytes
                // having reached the disk, so no record is written after it.
                written = Int.max
                throw error
            }
            written = commit.number
        }
    }

    /// Records the same version under a fuller statement of it (a GET's tag next to a listing's
    /// date), from the next commit on; the bytes stay.
    package func adopt(validator text: String) {
        validator = text
        recordChanged = true
    }

    /// Whether every byte of the resource is recorded.
    package var isComplete: Bool { present.contains(0..<length) }

    /// Forgets everything: an empty record, an empty data file.
    package func reset() throws {
        try saveRecord(ByteRanges(), validator: validator)
        guard ftruncate(descriptor, 0) == 0 else { throw LoaderError.fromErrno(errno) }
        present = ByteRanges()
        pending = ByteRanges()
    }

    /// Replaces the record (an `AtomicFile`) — unless the data file was deleted or replaced
    /// meanwhile (evicted): a record must never vouch for bytes in a file it does not describe.
    private func saveRecord(_ ranges: ByteRanges, validator: String) throws {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, lstat(dataPath, &named) == 0, opened.st_ino == named.st_ino,
              opened.st_dev == named.st_dev else {
            throw LoaderError.readFailed("cache: the entry was removed")
        }
        var text = "cloudplayerd-ranges 2\nlength \(length)\nvalidator \(Self.escape(validator))\ncheck \(Self.escape(check))\n"
        for range in ranges.ranges { text += "\(range.lowerBound) \(range.upperBound)\n" }
        text += "end\n"
        // Without the folder's sync: records are written every half megabyte, and one a crash
        // takes back leaves the record before it, which vouches for no byte the data file lacks
        // (bytes are only added; a file cut shorter than its record is not used).
        try AtomicFile.write(Array(text.utf8), to: URL(fileURLWithPath: recordPath), syncingFolder: false)
    }

    /// A record's contents, or nil unless it is whole and well-formed.
    package static func parse(_ text: String) -> Record? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 6, lines[0] == "cloudplayerd-ranges 2", lines[1].hasPrefix("length "),
              let length = Int64(lines[1].dropFirst(7)), length >= 0, lines[2].hasPrefix("validator "),
              lines[3].hasPrefix("check "), lines[lines.count - 2] == "end", lines[lines.count - 1].isEmpty else { return nil }
        var ranges = ByteRanges()
        for line in lines[4..<(lines.count - 2)] {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let start = Int64(fields[0]), let end = Int64(fields[1]),
                  start >= 0, start < end, end <= length else { return nil }
            ranges.insert(start..<end)
        }
        return Record(length: length, validator: String(lines[2].dropFirst(10)), check: String(lines[3].dropFirst(6)), ranges: ranges)
    }

    /// Validators are server text: kept on one line.
    static func escape(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0 == "\\" ? "?" : Character($0) })
    }
}
