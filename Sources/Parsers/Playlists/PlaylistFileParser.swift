import Base
import FoundationEssentials

/// Reads M3U/M3U8 and PLS playlist files into entries. Entries are paths or URLs written by
/// people and other programs, so they are resolved against the playlist's own URL, encoded as
/// needed, and dropped (not fatal) when they point anywhere the daemon must not go.
package enum PlaylistFileParser {
    package static let maxEntries = 100_000

    /// `name` is the file name (its extension tells the format when the content does not);
    /// `base` is the playlist's own URL.
    package static func parse(_ data: [UInt8], name: String, base: URL) throws -> [PlaylistItem] {
        let lines = lines(of: data)
        let first = lines.first?.lowercased()
        let file = name.split(separator: "/").last ?? ""
        let ext = file.contains(".") ? file.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        if first == "[playlist]" || (ext == "pls" && first?.hasPrefix("#extm3u") != true) {
            return try pls(lines, base: base)
        }
        if first?.hasPrefix("#extm3u") == true || ext == "m3u" || ext == "m3u8" {
            return m3u(lines, base: base)
        }
        throw ParseError.unsupported("a playlist that is neither M3U nor PLS (\(name))")
    }

    /// A document already known to be M3U (`StationList` decides by type and content too).
    static func m3u(_ data: [UInt8], base: URL) -> [PlaylistItem] {
        m3u(lines(of: data), base: base)
    }

    /// A document already known to be PLS.
    static func pls(_ data: [UInt8], base: URL) throws -> [PlaylistItem] {
        try pls(lines(of: data), base: base)
    }

    /// The non-blank lines, trimmed, whatever ends them.
    private static func lines(of data: [UInt8]) -> [String] {
        TextDecoding.document(data)
            .split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    // MARK: M3U

    private static func m3u(_ lines: [String], base: URL) -> [PlaylistItem] {
        var items: [PlaylistItem] = []
        var pending: (duration: Double?, title: String?)?
        for line in lines {
            if line.hasPrefix("#") {
                if line.uppercased().hasPrefix("#EXTINF:") { pending = extinf(line.dropFirst(8)) }
                continue
            }
            if let url = entry(line, base: base) {
                items.append(PlaylistItem(url: url, title: pending?.title, duration: pending?.duration))
                if items.count >= maxEntries { break }
            }
            pending = nil
        }
        return items
    }

    /// `#EXTINF:` followed by "123,Title" or "-1 tvg-name=\"a,b\",Title": the duration up to a
    /// space or comma, the title after the first comma outside quotes.
    private static func extinf(_ rest: Substring) -> (Double?, String?) {
        let number = rest.prefix { $0 != "," && $0 != " " }
        var inQuotes = false
        var titleStart: Substring.Index?
        for index in rest.indices {
            if rest[index] == "\"" { inQuotes.toggle() }
            if rest[index] == ",", !inQuotes {
                titleStart = rest.index(after: index)
                break
            }
        }
        let title = titleStart.flatMap { TextDecoding.nonEmpty(String(rest[$0...].prefix(TextDecoding.maxBytes))) }
        return (seconds(String(number)), title)
    }

    // MARK: PLS

    private static func pls(_ lines: [String], base: URL) throws -> [PlaylistItem] {
        var files: [Int: String] = [:], titles: [Int: String] = [:], lengths: [Int: Double] = [:]
        var sawHeader = false
        for line in lines {
            if line.lowercased() == "[playlist]" {
                sawHeader = true
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingWhitespace().lowercased()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            for (prefix, kind) in [("file", 0), ("title", 1), ("length", 2)] where key.hasPrefix(prefix) {
                let digits = key.dropFirst(prefix.count)
                guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let number = Int(digits) else { break }
                guard files.count < maxEntries || files[number] != nil else { break }
                switch kind {
                case 0: files[number] = value
                case 1: titles[number] = TextDecoding.nonEmpty(String(value.prefix(TextDecoding.maxBytes)))
                default: lengths[number] = seconds(value)
                }
            }
        }
        guard sawHeader || !files.isEmpty else {
            throw ParseError.malformed("a PLS playlist without a [playlist] section or any FileN entry")
        }
        return files.keys.sorted().compactMap { number in
            entry(files[number] ?? "", base: base).map { PlaylistItem(url: $0, title: titles[number], duration: lengths[number]) }
        }
    }

    // MARK: Entries

    /// How a list writes its entries. M3U and PLS hold paths or URLs as people type them, where
    /// a `%`, `?` or `#` in a path is just a character and a leading `/` is a local file; XSPF and
    /// ASX hold URI references (RFC 3986), whose `%XX` escapes stand and whose `/stream` is a
    /// path on the list's own server.
    enum EntryText { case pathOrURL, uriReference }

    /// An entry's URL: http(s) URLs as they are; file URLs and local paths only in a local
    /// playlist; other references relative to the playlist; any other scheme dropped. Every
    /// kind of list goes through here, so a list from a server never reaches a local file.
    static func entry(_ text: String, base: URL, written: EntryText = .pathOrURL) -> URL? {
        if let scheme = LinkResolver.scheme(of: text) {
            guard ["http", "https", "file"].contains(scheme) else { return nil }
            return LinkResolver.url(text, relativeTo: base)
        }
        switch written {
        case .pathOrURL:
            if text.hasPrefix("/") || text.hasPrefix("\\") {
                guard base.isFileURL, !text.hasPrefix("//"), !text.hasPrefix("\\\\") else { return nil }
            }
            return LinkResolver.path(text, relativeTo: base)
        case .uriReference:
            // A backslash starts a Windows drive-relative path or share; `//host` under a local
            // list's file: URL would be a share too.
            guard !text.hasPrefix("\\"), !(base.isFileURL && text.hasPrefix("//")) else { return nil }
            return LinkResolver.url(text, relativeTo: base)
        }
    }

    /// Seconds from "123" or "123.5"; negative (−1 is "unknown") or garbage is nil.
    static func seconds(_ text: String) -> Double? {
        guard text.count <= 32, let value = Double(text.trimmingWhitespace()),
              value.isFinite, value >= 0 else { return nil }
        return value
    }
}
