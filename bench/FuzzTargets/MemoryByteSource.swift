import Model

/// Bytes in memory as a `ByteSource`: what fuzzing feeds the decoders.
package final class MemoryByteSource: ByteSource, @unchecked Sendable {
    private let bytes: [UInt8]
    /// How many of the first bytes it says it holds (`holds`), as a remote file whose start is
    /// cached: a decoder then seeks as over the network (an MP3 through its Xing table). Nil: all.
    private let heldPrefix: Int64?

    package init(_ bytes: [UInt8], holdingOnly heldPrefix: Int64? = nil) {
        self.bytes = bytes
        self.heldPrefix = heldPrefix
    }

    package func holds(_ range: Range<Int64>) -> Bool {
        range.upperBound <= (heldPrefix ?? .max)
    }

    package var length: Int64? { Int64(bytes.count) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        guard offset >= 0, offset < Int64(bytes.count), !buffer.isEmpty else { return 0 }
        let count = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: count) }
        return count
    }
}
