import Foundation

/// Files on this machine's disks.
public struct LocalSource: MediaSource {
    public let name = "local"

    public init() {}

    public func open(_ url: URL, with loader: isolated LoaderActor, waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        try FileByteSource(path: url.path)
    }

    public nonisolated(nonsending) func describe(_ url: URL) async throws -> ResourceInfo {
        let source = try FileByteSource(path: url.path)
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw LoaderError.fromErrno(errno) }
        return ResourceInfo(length: source.length ?? 0, validator: "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
    }
}
