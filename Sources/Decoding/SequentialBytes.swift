import Model

/// A window of a `ByteSource` read front to back, for parsers that walk frame to frame (ADTS):
/// it reads only what the walk needs — from a station, what has come — and drops what lies
/// well behind, so memory stays a few frames' worth.
struct SequentialBytes {
    let source: any ByteSource
    private(set) var bytes: [UInt8] = []
    /// The source offset of `bytes[0]`.
    private(set) var start: Int64
    private(set) var atEnd = false

    init(source: any ByteSource, from offset: Int64) {
        self.source = source
        start = offset
    }

    /// The offset after the last byte read.
    var end: Int64 { start + Int64(bytes.count) }

    /// The bytes from `offset` on that are here (reading none).
    func slice(from offset: Int64) -> ArraySlice<UInt8> {
        bytes[Int(offset - start)...]
    }

    /// Whether `count` bytes at `offset` are here, reading them if not; false at the end.
    mutating func have(_ offset: Int64, count: Int) throws -> Bool {
        if offset < start { (bytes, start, atEnd) = ([], offset, false) }
        while end < offset + Int64(count) {
            guard try readMore() else { return false }
        }
        return true
    }

    /// Reads what the source has next (a station: what has come, at least a byte); false at its end.
    mutating func readMore() throws -> Bool {
        guard !atEnd else { return false }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0, at: end) }
        if count == 0 { atEnd = true; return false }
        bytes += chunk[..<count]
        return true
    }

    /// Drops the bytes before `offset` once there are enough of them to be worth the copy (all
    /// of them, when the walk went past what was read: a seek skipping frames by their headers).
    mutating func drop(before offset: Int64) {
        let behind = Int(offset - start)
        if offset >= end {
            (bytes, start) = ([], offset)
        } else if behind >= 64 * 1024 {
            bytes.removeFirst(behind)
            start = offset
        }
    }
}
