/// `<?xml version="1.0" encoding="…" standalone="…"?>` at the start of a document (XML 1.0
/// §2.8, §4.3.3): its pseudo-attributes in their fixed order, and nothing else. Only the encoding
/// matters to us; the rest is checked so that a document that merely looks like XML is refused.
struct XMLDeclaration {
    /// Just after the closing `?>`.
    var end: Int
    /// The declared encoding, lowercased.
    var encoding: String?

    /// The declaration at `start`, nil if there is none (the document starts otherwise, or with
    /// a processing instruction whose target only begins with "xml").
    init?(_ bytes: [UInt8], at start: Int, rules: XMLRules) throws {
        guard bytes[start...].starts(with: "<?xml".utf8) else { return nil }
        var index = start + 5
        guard index < bytes.count, XMLInput.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "?") else { return nil }
        func fail() -> ParseError {
            rules.malformed("an XML declaration that is not one", line: XMLInput.line(of: start, in: bytes))
        }
        func space() -> Bool {
            let before = index
            while index < bytes.count, XMLInput.isSpace(bytes[index]) { index += 1 }
            return index > before
        }
        /// `name = "value"`, if `name` comes next; the value must be short and of `allowed` bytes.
        func pseudo(_ name: String, allowed: (UInt8) -> Bool) throws -> String? {
            guard bytes[index...].starts(with: name.utf8) else { return nil }
            index += name.utf8.count
            _ = space()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw fail() }
            index += 1
            _ = space()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { throw fail() }
            let quote = bytes[index]
            let valueStart = index + 1
            guard let close = bytes[valueStart...].prefix(64).firstIndex(of: quote),
                  bytes[valueStart..<close].allSatisfy(allowed) else { throw fail() }
            index = close + 1
            return String(decoding: bytes[valueStart..<close], as: UTF8.self)
        }
        guard space(), let version = try pseudo("version", allowed: { Self.isNameByte($0) }),
              version.hasPrefix("1."), version.count > 2, version.dropFirst(2).allSatisfy(\.isWholeNumber) else { throw fail() }
        var spaced = space()
        if spaced, let name = try pseudo("encoding", allowed: { Self.isNameByte($0) }) {
            guard name.first?.isLetter == true else { throw fail() }
            encoding = name.lowercased()
            spaced = space()
        }
        if spaced, let standalone = try pseudo("standalone", allowed: { Self.isNameByte($0) }) {
            guard standalone == "yes" || standalone == "no" else { throw fail() }
            _ = space()
        }
        guard bytes[index...].starts(with: "?>".utf8) else { throw fail() }
        end = index + 2
    }

    /// Letters, digits, `.`, `_`, `-`: what versions, encoding names and yes/no are made of.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
