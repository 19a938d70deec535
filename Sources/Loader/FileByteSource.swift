import FoundationEssentials
import Glibc
import Model

/// A local file as a `ByteSource`: positioned reads on one descriptor, safe from any thread.
package final class FileByteSource: ByteSource {
    private let descriptor: Int32
    package let length: Int64?

    package init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LoaderError.fromErrno(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw LoaderError.fromErrno(code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw LoaderError.notAFile
        }
        descriptor = fd
        length = Int64(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            let n = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw LoaderError.fromErrno(errno) }
        }
    }
}
