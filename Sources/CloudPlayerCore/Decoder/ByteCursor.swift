import Foundation

/// A read position over a `ByteSource`, for C decoders that read sequentially and seek by whence.
///
/// It keeps the first error the source threw, so the decoder can report "read failed: …" instead
/// of the C library's generic complaint.
final class ByteCursor {
    let source: any ByteSource
    private(set) var position: Int64 = 0
    private(set) var failure: (any Error)?

    init(source: any ByteSource) {
        self.source = source
    }

    /// Reads up to `buffer.count` bytes; returns -1 on a source error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        do {
            let n = try source.read(into: buffer, at: position)
            position += Int64(n)
            return n
        } catch {
            failure = failure ?? error
            return -1
        }
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
