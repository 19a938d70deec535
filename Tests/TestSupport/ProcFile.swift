import Foundation

/// A file of /proc read to its end. The kernel makes such a file as it is read and says its size
/// is 0, and Foundation's `String(contentsOfFile:)` then stops after one read of a page: of
/// /proc/net/tcp on a machine with many sockets it gave the first 4 KiB, so a server listening
/// further down was never seen to listen.
public enum ProcFile {
    /// The whole text, or "" when the file cannot be opened (the process has ended).
    public static func read(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
