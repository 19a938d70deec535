import Base
import FoundationEssentials

/// Turns link text from feeds and playlists into URLs the daemon may open: the text is written
/// by people (spaces, non-ASCII, Windows paths), so it is percent-encoded first, then resolved
/// against the document's own URL, and only http(s) — or file, for a local document — is kept.
package enum LinkResolver {
    /// A URL reference ("https://…", "../a%20b.mp3", "ep 1.mp3"): characters that may not stand
    /// in a URL are encoded, `%XX` escapes kept.
    package static func url(_ text: String, relativeTo base: URL) -> URL? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= TextDecoding.maxBytes else { return nil }
        return allowed(URL(string: encode(trimmed, keeping: urlCharacters, keepEscapes: true), relativeTo: base), base: base)
    }

    /// A file path relative to the document ("Album/01 Intro.mp3", "..\\b.mp3"): every
    /// character outside a path segment's safe set is encoded, `%`, `?` and `#` included, since
    /// in a path they are just characters.
    static func path(_ text: String, relativeTo base: URL) -> URL? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= TextDecoding.maxBytes else { return nil }
        // A playlist made on Windows separates folders with backslashes.
        let slashed = trimmed.contains("/") ? trimmed : trimmed.replacing("\\", with: "/")
        return allowed(URL(string: encode(slashed, keeping: pathCharacters, keepEscapes: false), relativeTo: base), base: base)
    }

    /// Whether `text` starts with a URL scheme ("https:", "C:" …), by RFC 3986's grammar.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return candidate.lowercased()
    }

    /// Only http and https URLs with a host, or file URLs when the document itself is a file.
    private static func allowed(_ url: URL?, base: URL) -> URL? {
        guard let url = url?.absoluteURL, let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return url.host.map { !$0.isEmpty } == true ? url : nil
        case "file": return base.isFileURL ? url : nil
        default: return nil
        }
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    private static let urlCharacters = unreserved.union(":/?#[]@!$&'()*+,;=".utf8)
    private static let pathCharacters = unreserved.union("/!$&'()*+,;=@".utf8)

    private static func encode(_ text: String, keeping safe: Set<UInt8>, keepEscapes: Bool) -> String {
        let bytes = Array(text.utf8)
        var result = ""
        result.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for (index, byte) in bytes.enumerated() {
            if safe.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else if keepEscapes, byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                      isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                result.append("%")
            } else {
                result.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 15)]))
            }
        }
        return result
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
