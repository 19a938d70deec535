/// A feed's title as the text a listener reads. Publishers put HTML in titles (`<b>`, `<br/>`,
/// in CDATA or entity-escaped) and escape entities twice (`&amp;amp;`, `&amp;#8217;`); podcast
/// apps show the text, so markup of known HTML elements goes and entities are decoded, a few
/// rounds deep. Tags of unknown names (`<More>`) are left: they are more likely words.
package enum FeedText {
    package static func plain(_ text: String) -> String? {
        var current = text
        for _ in 0..<3 {
            let next = decodingEntities(strippingTags(current))
            if next == current { break }
            current = next
        }
        let words = current.split(whereSeparator: { $0.isWhitespace || $0 == "\u{A0}" || $0 == "\0" })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// Elements whose tags are markup in a title rather than text.
    private static let htmlElements: Set<String> = [
        "a", "abbr", "b", "big", "blockquote", "br", "cite", "code", "del", "div", "em", "font", "h1", "h2", "h3", "h4",
        "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "small", "span", "strike",
        "strong", "sub", "sup", "time", "tt", "u", "ul",
    ]

    private static func strippingTags(_ text: String) -> String {
        guard text.contains("<") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            let after = rest[open...]
            if let close = after.firstIndex(of: ">"), let name = htmlTagName(after[after.index(after: open)..<close]) {
                result += blockElements.contains(name) ? " " : ""
                rest = after[after.index(after: close)...]
            } else {
                result += "<"
                rest = after.dropFirst()
            }
        }
        return result + rest
    }

    /// Elements that break a line: their tags stand for a space, inline ones for nothing.
    private static let blockElements: Set<String> = [
        "blockquote", "br", "div", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "ul",
    ]

    /// The element of `b`, `/b`, `br/`, `a href="…"` (lowercased) if it is a known one's tag.
    private static func htmlTagName(_ inside: Substring) -> String? {
        var body = inside
        if body.first == "/" { body = body.dropFirst() }
        let name = body.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }.lowercased()
        guard !name.isEmpty, htmlElements.contains(name) else { return nil }
        let next = body.dropFirst(name.count).first
        return next == nil || next == "/" || next?.isWhitespace == true ? name : nil
    }

    private static let named: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ndash": "–", "mdash": "—",
        "lsquo": "‘", "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„", "hellip": "…", "laquo": "«",
        "raquo": "»", "middot": "·", "bull": "•", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "euro": "€",
        "pound": "£", "times": "×", "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à",
        "acirc": "â", "iacute": "í", "oacute": "ó", "uacute": "ú", "ntilde": "ñ", "ccedil": "ç", "auml": "ä",
        "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß", "Eacute": "É",
    ]

    /// `&name;`, `&#8217;` and `&#x2019;`; anything else after `&` stays as written.
    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            let body = after.prefix(12).prefix { $0 != ";" }
            if body.count < after.prefix(12).count, let character = entity(body) {
                result.append(character)
                rest = after.dropFirst(body.count + 1)
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    private static func entity(_ body: Substring) -> Character? {
        if body.first == "#" {
            let digits = body.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return Character(scalar)
        }
        return named[String(body)]
    }
}
