import Model

/// Bytes in memory as a `ByteSource`: what fuzzing feeds the decoders.
package final class MemoryByteSource: ByteSource, @unchecked Sendable {
    private let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var length: Int64? { Int64(bytes.count) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        guard offset >= 0, offset < Int64(bytes.count), !buffer.isEmpty else { return 0 }
        let count = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: count) }
        return count
    }
}
