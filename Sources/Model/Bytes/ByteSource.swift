/// Random-access bytes of one resource: a local file now, a cached download later.
///
/// `read` may block until the bytes exist (the network loader backs it with range requests), so
/// it is called only from threads that may block — the decoder's — never from the cooperative pool.
package protocol ByteSource: Sendable {
    /// Total length in bytes, when known.
    var length: Int64? { get }

    /// Copies up to `buffer.count` bytes starting at `offset` and returns how many it copied;
    /// 0 only at the end of the resource.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int

    /// Makes a read that waits for bytes (and every later one) throw `LoaderError.cancelled`:
    /// how a seek stops a decoder blocked on the network. Safe from any thread.
    func cancel()

    /// Whether every byte of `range` can be read now, without a download: a decoder that would
    /// read through a stretch to find its way (an MP3 seek) does so only when it costs no fetch.
    func holds(_ range: Range<Int64>) -> Bool
}

extension ByteSource {
    /// Local bytes never keep a reader waiting.
    package func cancel() {}

    /// Local bytes are all here.
    package func holds(_ range: Range<Int64>) -> Bool { true }
}

extension ByteSource {
    /// Reads up to `count` bytes at `offset`, fewer only at the end of the resource.
    package func readBytes(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while filled < count {
                let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                                 at: offset + Int64(filled))
                if n == 0 { break }
                filled += n
            }
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The bytes of `range`, fewer only at the end of the resource.
    package func readBytes(in range: Range<Int64>) throws -> [UInt8] {
        let end = min(range.upperBound, length ?? range.upperBound)
        guard range.lowerBound < end else { return [] }
        return try readBytes(at: range.lowerBound, count: Int(end - range.lowerBound))
    }
}
