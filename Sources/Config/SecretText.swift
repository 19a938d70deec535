import Glibc

/// A secret read as text: from a file or a pipe, never more than `largest` bytes (a secret is a
/// line, and `/dev/zero` named by mistake must be an error, not all the memory there is), and
/// without its trailing newline.
package enum SecretText {
    /// The most a secret file, command or piped password may give.
    package static let largest = 64 << 10

    package enum ReadFailure: Error {
        case tooLarge
        /// The `errno` of a failed read.
        case failed(Int32)
    }

    /// Reads `descriptor` to its end.
    package static func read(_ descriptor: Int32) throws(ReadFailure) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .failed(errno) }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[..<count]
            guard bytes.count <= largest else { throw .tooLarge }
        }
    }

    /// `text` without the newlines that end it.
    package static func trimmed(_ text: String) -> String {
        var text = text
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
