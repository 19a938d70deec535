import Glibc

/// Standard output or error, written with write(2): unbuffered, so a line per event reaches a
/// pipe or a file at once — what the commands print, without Foundation's `FileHandle`.
package enum StandardStream {
    case output, error

    /// Writes `line` and a newline.
    package func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text`, all of it (a short write or EINTR is continued; a closed pipe loses the
    /// rest, as a terminal that went away would).
    package func write(_ text: String) {
        let descriptor: Int32 = self == .output ? STDOUT_FILENO : STDERR_FILENO
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
