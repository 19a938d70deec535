/// What a kind of document may hold beyond plain XML, and what it is called in errors. Every
/// document comes from a server or a feed host, so the defaults are the strict ones; feeds are
/// the one kind written by hand in the wild (`forFeeds`).
package struct XMLRules: Sendable {
    /// The document in messages: "a PROPFIND answer", "a podcast feed".
    package var kind: String
    /// ISO-8859-1 and windows-1252, when declared, are read (feeds); else only UTF-8 and UTF-16.
    package var singleByteEncodings = false
    /// A DOCTYPE naming only an external DTD may stand (RSS 0.91's); it is never fetched, and
    /// entities it might declare stay as written. A DOCTYPE with declarations is always refused.
    package var plainDoctype = false
    /// A prefix nobody declared is kept, with no namespace, instead of being an error (feeds use
    /// `itunes:` undeclared).
    package var undeclaredPrefixes = false
    /// Processing instructions are skipped instead of refused. None of our documents needs one.
    package var instructions = false
    /// Elements open at once, at most.
    package var maxDepth = 256

    /// The largest document read.
    package static let maxBytes = 64 * 1024 * 1024
    /// The longest element or attribute name.
    static let maxNameBytes = 1000
    /// Attributes (namespace declarations included) on one element, at most.
    static let maxAttributes = 256

    package init(kind: String) {
        self.kind = kind
    }

    /// Podcast feeds as hosts write them.
    package static func forFeeds(kind: String) -> XMLRules {
        var rules = XMLRules(kind: kind)
        rules.singleByteEncodings = true
        rules.plainDoctype = true
        rules.undeclaredPrefixes = true
        return rules
    }
}

extension XMLRules {
    /// A document that breaks XML's rules, and where.
    func malformed(_ reason: String, line: Int) -> ParseError {
        .malformed("\(kind) that is not well-formed XML (line \(line): \(reason))")
    }

    /// A document that holds what these rules refuse (`what`: "a processing instruction").
    func refused(_ what: String, line: Int) -> ParseError {
        .unsupported("\(kind) with \(what) (line \(line))")
    }
}
