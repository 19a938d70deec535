import Base

/// One line of an HLS playlist that says something (blank lines and comments are dropped):
/// a tag (`#EXT…`, split at its first colon) or a URI.
struct HLSLine {
    /// From 1, for messages.
    var number: Int
    var text: String

    /// `EXT-X-KEY` for `#EXT-X-KEY:METHOD=NONE`; nil for a URI.
    var tag: Substring? {
        guard text.hasPrefix("#EXT") else { return nil }
        return text.dropFirst().prefix { $0 != ":" }
    }

    /// What follows the tag's colon ("" for a tag without one).
    var value: Substring {
        guard let colon = text.firstIndex(of: ":") else { return "" }
        return text[text.index(after: colon)...]
    }

    /// The lines of `text` that are tags or URIs, trimmed; `#` lines that are not tags are
    /// comments (RFC 8216 §4.1). Lines end in LF or CR LF (one Character to Swift).
    static func lines(of text: String) -> [HLSLine] {
        var lines: [HLSLine] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            let line = raw.trimmingWhitespace()
            guard !line.isEmpty, !line.hasPrefix("#") || line.hasPrefix("#EXT") else { continue }
            lines.append(HLSLine(number: number, text: line))
        }
        return lines
    }

    /// Playlist text quoted in a message: at most 80 characters, and no query string or user info
    /// of a URL in it — a signed CDN token or a key's address must not reach the journal.
    static func quoted(_ text: some StringProtocol) -> String {
        var shown = String(text)
        if let query = shown.firstIndex(of: "?") { shown = String(shown[..<query]) + "?…" }
        if let scheme = shown.firstRange(of: "://"), let at = shown[scheme.upperBound...].firstIndex(of: "@"),
           !shown[scheme.upperBound..<at].contains("/") {
            shown.removeSubrange(scheme.upperBound...at)
        }
        return shown.count > 80 ? String(shown.prefix(80)) + "…" : shown
    }

    /// An error that names this line.
    func error(_ message: String) -> ParseError {
        .malformed("line \(number): \(message)")
    }
}
