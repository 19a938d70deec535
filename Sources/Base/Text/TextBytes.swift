import Glibc

/// Strings compared as their UTF-8 bytes, as SQLite compares text and as URLs are compared —
/// not as Swift's `==` and `hasPrefix` do, by characters (an é and an e with a combining accent
/// are equal to them). A memcmp when both are native strings, as nearly all are; a library
/// listing asks it once a song.
extension String {
    /// Whether the two have the same bytes.
    package func hasSameBytes(as other: String) -> Bool {
        utf8.count == other.utf8.count && hasBytePrefix(other)
    }

    /// Whether `prefix`'s bytes begin this string's.
    package func hasBytePrefix(_ prefix: String) -> Bool {
        guard prefix.utf8.count <= utf8.count else { return false }
        let fast = utf8.withContiguousStorageIfAvailable { mine in
            prefix.utf8.withContiguousStorageIfAvailable { theirs in
                theirs.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, theirs.count) == 0
            }
        }
        return (fast ?? nil) ?? utf8.starts(with: prefix.utf8)
    }
}
