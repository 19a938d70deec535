import Foundation
import Model

/// Files on this machine's disks.
package struct LocalSource: MediaSource {
    package let name = "local"

    package init() {}

    package func open(_ url: URL, with loader: isolated LoaderActor, waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        try FileByteSource(path: url.path)
    }

    package nonisolated(nonsending) func describe(_ url: URL) async throws -> ResourceInfo {
        let source = try FileByteSource(path: url.path)
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw LoaderError.fromErrno(errno) }
        return ResourceInfo(length: source.length ?? 0, validator: "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
    }

    /// Exactly `range` of the file (shorter only at its end). Blocks: call it off the cooperative pool.
    static func bytes(in range: Range<Int64>, of url: URL) throws -> [UInt8] {
        let source = try FileByteSource(path: url.path)
        let end = min(range.upperBound, source.length ?? range.upperBound)
        guard range.lowerBound < end else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(end - range.lowerBound))
        var done = 0
        while done < bytes.count {
            let count = try bytes.withUnsafeMutableBytes {
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...]), at: range.lowerBound + Int64(done))
            }
            guard count > 0 else { break }
            done += count
        }
        return Array(bytes[0..<done])
    }
}
