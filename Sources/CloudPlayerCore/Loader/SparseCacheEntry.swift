import Foundation

/// One cached resource on disk: a sparse data file holding the bytes at their own offsets, and
/// a record of which ranges are really there.
///
/// Crash safety comes from ordering: bytes are written, `commit` syncs the data file, and only
/// then is the record replaced — atomically, by writing a new file and renaming it over the old.
/// A crash loses at most bytes written since the last commit; it never leaves the record
/// claiming bytes the data file lacks. A record that does not parse, or that belongs to another
/// version of the resource, is treated as empty. Used from one thread (the loader's).
public final class SparseCacheEntry {
    public let length: Int64
    public let validator: String
    /// Bytes recorded as present (committed).
    public private(set) var present = RangeSet()
    /// Bytes written since the last commit: readable now, recorded at the next commit.
    private var pending = RangeSet()
    private let dataPath: String
    private let recordPath: String
    private let descriptor: Int32

    /// Opens (or creates) the entry named `name` in `directory` for a resource of `length` bytes
    /// whose version is `validator` (ETag or Last-Modified). Names must not reveal the resource:
    /// callers pass a hash.
    public init(directory: URL, name: String, length: Int64, validator: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        self.length = length
        self.validator = validator
        dataPath = directory.appendingPathComponent(name + ".data").path
        recordPath = directory.appendingPathComponent(name + ".ranges").path
        let fd = open(dataPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw LoaderError.fromErrno(errno) }
        descriptor = fd
        if let record = try? String(contentsOfFile: recordPath, encoding: .utf8),
           let ranges = Self.parse(record, length: length, validator: validator) {
            present = ranges
        } else {
            // No record, a damaged one, or another version of the file: start empty.
            try reset()
        }
    }

    deinit {
        close(descriptor)
    }

    /// Copies present bytes at `offset` (committed or pending) into `buffer`; returns how many,
    /// 0 if the byte at `offset` is not here.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        let run = max(present.presentRun(from: offset), pending.presentRun(from: offset))
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
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
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

    /// Makes pending bytes durable, then records them.
    public func commit() throws {
        guard !pending.isEmpty else { return }
        guard fdatasync(descriptor) == 0 else { throw LoaderError.readFailed("cache: \(String(cString: strerror(errno)))") }
        var next = present
        for range in pending.ranges { next.insert(range) }
        try saveRecord(next)
        present = next
        pending = RangeSet()
    }

    /// Whether every byte of the resource is recorded.
    public var isComplete: Bool { present.contains(0..<length) }

    /// Forgets everything: an empty record, an empty data file.
    public func reset() throws {
        try saveRecord(RangeSet())
        guard ftruncate(descriptor, 0) == 0 else { throw LoaderError.fromErrno(errno) }
        present = RangeSet()
        pending = RangeSet()
    }

    /// Writes the record to a new file, syncs it, and renames it over the old one.
    private func saveRecord(_ ranges: RangeSet) throws {
        var text = "cloudplayerd-ranges 1\nlength \(length)\nvalidator \(Self.escape(validator))\n"
        for range in ranges.ranges { text += "\(range.lowerBound) \(range.upperBound)\n" }
        text += "end\n"
        let temporary = recordPath + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw LoaderError.fromErrno(errno) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, recordPath) == 0 else {
            unlink(temporary)
            throw LoaderError.readFailed("cache: cannot write its range record")
        }
    }

    /// The record's ranges, or nil unless it is whole, well-formed and for this very version.
    static func parse(_ text: String, length: Int64, validator: String) -> RangeSet? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 5, lines[0] == "cloudplayerd-ranges 1", lines[1] == "length \(length)",
              lines[2] == "validator \(escape(validator))", lines[lines.count - 2] == "end",
              lines[lines.count - 1].isEmpty else { return nil }
        var ranges = RangeSet()
        for line in lines[3..<(lines.count - 2)] {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let start = Int64(fields[0]), let end = Int64(fields[1]),
                  start >= 0, start < end, end <= length else { return nil }
            ranges.insert(start..<end)
        }
        return ranges
    }

    /// Validators are server text: kept on one line.
    private static func escape(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0 == "\\" ? "?" : Character($0) })
    }
}
