import Base

/// What the first bytes of a document are, by their content alone: which list they begin, a
/// web page, XML of another kind, other text, or bytes that are not text. `StationList` weighs
/// this against the Content-Type and the name, since servers label lists every which way
/// (`text/plain`, `application/octet-stream`, `text/html` from a script).
enum StationListSniff: Equatable {
    /// `#EXTM3U`, or an `#EXTINF` line before any entry: M3U (or HLS: `isHLS` tells).
    case m3u
    /// The first line that is no comment is an http(s) URL: a plain M3U without header.
    case urls
    /// `[playlist]`.
    case pls
    /// XML whose root is `<playlist>`.
    case xspf
    /// Markup whose root is `<asx>`, in any case.
    case asx
    /// `<!DOCTYPE html>`, or a root `<html>`, `<head>` or `<body>`.
    case html
    /// Other XML, or XML whose root lies beyond the bytes looked at.
    case xml
    /// Other text.
    case text
    /// Control bytes that text does not hold: audio, most likely.
    case binary
    /// Nothing but white space.
    case empty

    /// From the first bytes (`StationList.lookBytes` are plenty).
    init(_ head: some Collection<UInt8>) {
        let text = Self.text(head)
        guard let first = text.firstIndex(where: { !Self.isSpace($0) }) else {
            self = .empty
            return
        }
        if text.contains(where: { $0 < 0x20 && !Self.isSpace($0) && $0 != 0x0C }) {
            self = .binary
            return
        }
        let body = text[first...]
        if body.first == UInt8(ascii: "<") {
            self = Self.markup(body)
        } else if Self.startsLowercased(body, with: "[playlist]") {
            self = .pls
        } else {
            self = Self.lines(body)
        }
    }

    /// Whether an M3U is an HLS playlist, not a station list: a media playlist's
    /// `#EXT-X-TARGETDURATION` or `#EXT-X-MEDIA-SEQUENCE`, a master playlist's
    /// `#EXT-X-STREAM-INF`, at the start of any line.
    static func isHLS(_ bytes: [UInt8]) -> Bool {
        let tags = ["#EXT-X-TARGETDURATION", "#EXT-X-STREAM-INF", "#EXT-X-MEDIA-SEQUENCE"].map { Array($0.utf8) }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        while let hash = bytes[index...].firstIndex(of: UInt8(ascii: "#")) {
            if hash == start || bytes[hash - 1] == 0x0A || bytes[hash - 1] == 0x0D,
               tags.contains(where: { bytes[hash...].starts(with: $0) }) {
                return true
            }
            index = hash + 1
        }
        return false
    }

    /// The bytes as UTF-8 or an ASCII-compatible encoding: UTF-16 by its byte order mark is
    /// transcoded, a UTF-8 byte order mark dropped.
    private static func text(_ head: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(head)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return Array(TextDecoding.utf16(bytes[...], bigEndianDefault: true).utf8)
        }
        return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// Markup: the root element's name, after the XML declaration, instructions, comments and
    /// a DOCTYPE.
    private static func markup(_ body: ArraySlice<UInt8>) -> StationListSniff {
        var rest = body
        while let open = rest.firstIndex(where: { !isSpace($0) }), rest[open] == UInt8(ascii: "<") {
            rest = rest[open...]
            let skipped: (close: String, html: Bool)? =
                startsLowercased(rest, with: "<!--") ? ("-->", false)
                : startsLowercased(rest, with: "<?") ? ("?>", false)
                : startsLowercased(rest, with: "<!doctype") ? (">", startsLowercased(rest.dropFirst(9).drop(while: isSpace), with: "html"))
                : nil
            guard let skipped else {
                let name = rest.dropFirst().prefix { XMLReader.isInName($0) }
                let local = String(decoding: name.split(separator: UInt8(ascii: ":")).last ?? [], as: UTF8.self).lowercased()
                switch local {
                case "playlist": return .xspf
                case "asx": return .asx
                case "html", "head", "body": return .html
                default: return .xml
                }
            }
            if skipped.html { return .html }
            guard let end = find(skipped.close, in: rest) else { return .xml }
            rest = rest[end...]
        }
        return .xml
    }

    /// Text by its lines: M3U's `#EXTINF` before any entry, or a URL as the first entry.
    private static func lines(_ body: ArraySlice<UInt8>) -> StationListSniff {
        let lines = body.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
        if let first = lines.first, startsLowercased(first, with: "#extm3u") { return .m3u }
        for line in lines {
            let line = line.drop(while: isSpace)
            if startsLowercased(line, with: "#extinf:") { return .m3u }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            return startsLowercased(line, with: "http://") || startsLowercased(line, with: "https://") ? .urls : .text
        }
        return .text
    }

    /// Just past the first `marker`.
    private static func find(_ marker: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        let pattern = Array(marker.utf8)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index...].starts(with: pattern) { return index + pattern.count }
            index += 1
        }
        return nil
    }

    private static func startsLowercased(_ bytes: some Collection<UInt8>, with prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count
            && zip(bytes, prefix.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { XMLInput.isSpace(byte) }
}
