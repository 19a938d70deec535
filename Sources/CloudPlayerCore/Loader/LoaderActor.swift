import Foundation

/// Turns a track's location into a `ByteSource`.
///
/// It runs on a thread of its own because opening files (and, later, cache files) are blocking
/// system calls that must stay off the cooperative pool.
public actor LoaderActor {
    private let executor = ThreadExecutor(name: "loader")

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    public init() {}

    deinit {
        executor.shutdown()
    }

    public func open(_ url: URL) throws -> any ByteSource {
        guard url.isFileURL else { throw LoaderError.unsupportedScheme(url.scheme ?? "") }
        return try FileByteSource(path: url.path)
    }
}
