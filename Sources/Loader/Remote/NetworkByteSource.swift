import Base
import FoundationEssentials
import Model

/// One reader's view of a `RemoteResource`: a `ByteSource` whose reads wait for the download.
///
/// It is bound to the version of the file it was opened on: if the server's file changes under
/// it, reads fail rather than mix two versions. `cancel()` (from a seek or a skip) wakes a read
/// that waits, from any thread.
package final class NetworkByteSource: ByteSource, @unchecked Sendable {
    private let resource: RemoteResource
    private let reader: Int
    private let version: Int
    private let cancelled = Locked(false)
    private let waiting: (@Sendable (Bool) -> Void)?
    package let length: Int64?

    init(resource: RemoteResource, waiting: (@Sendable (Bool) -> Void)?) {
        self.resource = resource
        self.waiting = waiting
        reader = resource.attach()
        version = resource.version
        length = resource.currentInfo?.length
    }

    deinit {
        resource.detach(reader)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        try resource.read(into: buffer, at: offset, reader: reader, version: version,
                          isCancelled: { cancelled.withLock { $0 } }, waiting: waiting)
    }

    package func holds(_ range: Range<Int64>) -> Bool {
        resource.holds(range)
    }

    package func cancel() {
        cancelled.withLock { $0 = true }
        resource.interruptReaders()
    }
}
