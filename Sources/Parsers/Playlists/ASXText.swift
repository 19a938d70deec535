/// An ASX document made into XML our reader takes. Windows Media metafiles are "based on XML
/// syntax", but Windows Media Player read element and attribute names in any case, files in the
/// ANSI code page as well as in UTF-8 or UTF-16, and URLs with bare `&`s — and stations wrote
/// them that way (`<Title>…</TITLE>`, `href="…?a=1&b=2"`). So, before `XMLReader` sees it, the
/// text is decoded to UTF-8 (its declaration dropped), names in tags are lowercased, an unquoted
/// attribute value is quoted, and an `&` that starts no XML reference is written `&amp;`.
/// What is still not XML after that is the reader's one `ParseError`.
struct ASXText {
    /// The UTF-8 text being tidied, where the pass is in it, and what it wrote.
    private let text: [UInt8]
    private var index = 0
    private var output: [UInt8] = []

    static func xml(_ bytes: [UInt8], rules: XMLRules) throws -> [UInt8] {
        var tidy = ASXText(text: try utf8(bytes, rules: rules))
        tidy.run()
        return tidy.output
    }

    private init(text: [UInt8]) {
        self.text = text
        output.reserveCapacity(text.count + text.count / 16)
    }

    /// The text as UTF-8 without byte order mark or XML declaration: UTF-16 by its byte order
    /// mark; a declared single-byte encoding, or bytes that are not UTF-8, as windows-1252
    /// (Windows' "ANSI", of which ISO-8859-1 is all but a subset); else UTF-8.
    private static func utf8(_ bytes: [UInt8], rules: XMLRules) throws -> [UInt8] {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return dropDeclaration(try XMLInput.utf16ToUTF8(bytes, bigEndian: bytes[0] == 0xFE, rules: rules), rules: rules)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let start = body.firstIndex { !XMLInput.isSpace($0) } ?? body.endIndex
        let declared = (try? XMLDeclaration(body, at: start, rules: rules))?.encoding
        let text = dropDeclaration(body, rules: rules)
        if declared.map(XMLInput.singleByteNames.contains) == true || String(validating: text, as: UTF8.self) == nil {
            return XMLInput.singleByteToUTF8(text[...], windows: true)
        }
        return text
    }

    /// Without the XML declaration, whose encoding no longer holds; a broken one is left for
    /// the reader to refuse.
    private static func dropDeclaration(_ bytes: [UInt8], rules: XMLRules) -> [UInt8] {
        let start = bytes.firstIndex { !XMLInput.isSpace($0) } ?? bytes.endIndex
        guard let declaration = try? XMLDeclaration(bytes, at: start, rules: rules) else { return bytes }
        return Array(bytes[declaration.end...])
    }

    /// One pass over the UTF-8 text: comments and CDATA copied as they are, tags' names
    /// lowercased and values quoted, references checked.
    private mutating func run() {
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "<"):
                if at("<!--") {
                    copy(through: "-->")
                } else if at("<![CDATA[") {
                    copy(through: "]]>")
                } else if at("<!") || at("<?") {
                    copyByte()
                } else {
                    tag()
                }
            case UInt8(ascii: "&"):
                reference()
            default:
                copyByte()
            }
        }
    }

    /// `<name attr="value" …>` or `</name>`, up to its `>` or a `<` that breaks it off.
    private mutating func tag() {
        copyByte()
        if index < text.count, text[index] == UInt8(ascii: "/") { copyByte() }
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ">") {
                copyByte()
                return
            } else if byte == UInt8(ascii: "<") {
                return
            } else if byte == UInt8(ascii: "=") {
                copyByte()
                while index < text.count, XMLInput.isSpace(text[index]) { copyByte() }
                value()
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                value()
            } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                output.append(byte | 0x20)
                index += 1
            } else {
                copyByte()
            }
        }
    }

    /// An attribute value: a quoted one to its quote, an unquoted one to white space or `>`,
    /// quoted; its `&`s checked either way.
    private mutating func value() {
        guard index < text.count, text[index] != UInt8(ascii: ">") else { return }
        let quote = text[index]
        let quoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
        if quoted { index += 1 }
        output.append(quoted ? quote : UInt8(ascii: "\""))
        while index < text.count {
            let byte = text[index]
            if quoted ? byte == quote : XMLInput.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<") {
                break
            } else if byte == UInt8(ascii: "&") {
                reference()
            } else if !quoted && byte == UInt8(ascii: "\"") {
                output.append(contentsOf: "&quot;".utf8)
                index += 1
            } else {
                copyByte()
            }
        }
        output.append(quoted ? quote : UInt8(ascii: "\""))
        if quoted, index < text.count { index += 1 }
    }

    /// `&#…;`, `&#x…;` and XML's five entities as they are; any other `&` is a character.
    private mutating func reference() {
        var end = index + 1
        var valid = false
        if end < text.count, text[end] == UInt8(ascii: "#") {
            end += 1
            let hex = end < text.count && text[end] == UInt8(ascii: "x")
            if hex { end += 1 }
            let digitsStart = end
            while end < text.count, end - digitsStart < 8, Self.isDigit(text[end], hex: hex) { end += 1 }
            valid = end > digitsStart && end < text.count && text[end] == UInt8(ascii: ";")
        } else {
            valid = ["amp;", "lt;", "gt;", "quot;", "apos;"].contains { text[(index + 1)...].starts(with: $0.utf8) }
        }
        if valid {
            copyByte()
        } else {
            output.append(contentsOf: "&amp;".utf8)
            index += 1
        }
    }

    private static func isDigit(_ byte: UInt8, hex: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): hex
        default: false
        }
    }

    private func at(_ marker: String) -> Bool {
        text[index...].starts(with: marker.utf8)
    }

    private mutating func copyByte() {
        output.append(text[index])
        index += 1
    }

    /// Copies up to and including `marker`, or to the end when it never comes.
    private mutating func copy(through marker: String) {
        let pattern = Array(marker.utf8)
        var end = index + 1
        while end < text.count, !text[end...].starts(with: pattern) { end += 1 }
        end = min(end + pattern.count, text.count)
        output.append(contentsOf: text[index..<end])
        index = end
    }
}
