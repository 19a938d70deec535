/// The bytes of one part of a live stream (one connection), held in memory between the network
/// and the decoder: a bounded window that moves on as the decoder reads.
///
/// At most `capacity` bytes lie ahead of the reader — then the connection waits, and the server
/// with it (TCP's back-pressure) — and `keptBehind` behind it, so a decoder that looks at the
/// head again while it opens (the format sniffer, then the decoder itself) finds it. Memory per
/// stream is therefore at most `capacity + keptBehind + compactEvery`: 2.4 MiB.
struct LiveRing {
    /// Bytes ahead of the reader: 2 MiB, 131 s of a 128 kbit/s station, 52 s at 320 kbit/s.
    /// What a paused stream can hold before it is taken up live again (`LiveStream.resumeWithin`).
    static let capacity = 2 << 20
    /// Bytes kept behind the furthest read: more than the format sniffer's window (64 KiB).
    static let keptBehind = 128 << 10
    /// Bytes dropped at once from the front: moving the window byte by byte would copy it each time.
    static let compactEvery = 256 << 10

    private var storage: [UInt8] = []
    /// The offset of `storage[0]`: bytes before it are gone.
    private(set) var start: Int64 = 0
    /// The furthest a reader has read.
    private(set) var furthestRead: Int64 = 0
    /// The connection ended: past `end`, there is nothing more.
    var ended = false

    /// The offset after the last byte received.
    var end: Int64 { start + Int64(storage.count) }

    /// Whether the connection may add bytes: fewer than `capacity` lie ahead of the reader.
    var hasRoom: Bool { end - furthestRead < Int64(Self.capacity) }

    /// Bytes received and not yet read.
    var unread: Int64 { end - furthestRead }

    mutating func append(_ bytes: [UInt8]) {
        storage.append(contentsOf: bytes)
    }

    enum Copied {
        /// This many bytes were copied (0: at `end`, none yet).
        case bytes(Int)
        /// The offset lies before `start`: those bytes are gone.
        case gone
    }

    /// Copies bytes at `offset` into `buffer` and moves the window on past what was read.
    mutating func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Copied {
        guard offset >= start else { return .gone }
        guard offset < end, !buffer.isEmpty else { return .bytes(0) }
        let from = Int(offset - start)
        let count = min(buffer.count, storage.count - from)
        storage.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + from, byteCount: count)
        }
        furthestRead = max(furthestRead, offset + Int64(count))
        let droppable = Int(max(0, furthestRead - Int64(Self.keptBehind) - start))
        if droppable >= Self.compactEvery {
            storage.removeFirst(droppable)
            start += Int64(droppable)
        }
        return .bytes(count)
    }
}
