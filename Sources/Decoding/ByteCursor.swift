import Glibc
import Model

/// A read position over a `ByteSource`, for C decoders that read sequentially and seek by whence.
///
/// Decoders read in frame-sized bites (libmpg123: a 4-byte header, then the body), so the cursor
/// reads ahead in blocks and serves those bites from memory: one source read per block instead of
/// two per frame. It keeps the first error the source threw, so the decoder can report
/// "read failed: …" instead of the C library's generic complaint.
package final class ByteCursor {
    static let blockSize = 64 * 1024

    let source: any ByteSource
    private(set) var position: Int64 = 0
    private(set) var failure: (any Error)?
    private var block: [UInt8] = []
    private var blockStart: Int64 = 0

    init(source: any ByteSource) {
        self.source = source
    }

    /// Reads up to `buffer.count` bytes; returns 0 at the end, -1 on a source error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard buffer.count > 0 else { return 0 }
        if position < blockStart || position >= blockStart + Int64(block.count) {
            do {
                // A read larger than a block goes straight through; a small one fills the block.
                if buffer.count >= Self.blockSize {
                    let n = try source.read(into: buffer, at: position)
                    position += Int64(n)
                    return n
                }
                try fillBlock()
                if block.isEmpty { return 0 }
            } catch {
                failure = failure ?? error
                return -1
            }
        }
        let offset = Int(position - blockStart)
        let count = min(buffer.count, block.count - offset)
        block.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        position += Int64(count)
        return count
    }

    /// Reads the block at `position`. Bytes that arrived before an error are kept and served
    /// first; the error is thrown only when nothing came, so the decoder gets every byte there was.
    /// From a live stream (no length) it takes what has come: waiting for a whole block would
    /// hold the decoder for seconds of a station's audio.
    private func fillBlock() throws {
        let live = source.length == nil
        block = [UInt8](repeating: 0, count: Self.blockSize)
        blockStart = position
        var filled = 0
        defer { block.removeSubrange(filled...) }
        try block.withUnsafeMutableBytes { buffer in
            while filled < buffer.count {
                do {
                    let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                                            at: position + Int64(filled))
                    if n == 0 { break }
                    filled += n
                    if live { break }
                } catch where filled > 0 {
                    break
                }
            }
        }
    }

    /// Whether the position is at (or past) the end of a source of known length.
    var isAtEnd: Bool {
        source.length.map { position >= $0 } ?? false
    }

    /// Moves like lseek(2); returns the new position, or -1 for an impossible one.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END:
            guard let length = source.length else { return -1 }
            base = length
        default: return -1
        }
        let target = base + offset
        guard target >= 0 else { return -1 }
        position = target
        return target
    }
}
