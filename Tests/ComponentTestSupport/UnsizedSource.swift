import Model

/// A source that does not know its length, as a stream without `Content-Length`, and that hands
/// out at most `most` bytes a read, as a station's bytes come.
package final class UnsizedSource: ByteSource {
    package let inner: any ByteSource
    package let most: Int

    package init(_ inner: any ByteSource, most: Int = .max) {
        self.inner = inner
        self.most = most
    }

    package var length: Int64? { nil }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(most)), at: offset)
    }
}
