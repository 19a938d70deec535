/// Reads XML 1.0 with namespaces as a stream of events, pulled one at a time (`next()`), over
/// the document's bytes. Written for documents from outside — feeds, PROPFIND, S3 and Subsonic
/// answers: pure Swift, no C library, bounded in depth, names and attributes; no entity but the
/// five predefined ones and character references is ever expanded, and nothing is fetched. A
/// document that breaks the rules is one `ParseError` naming the line, never a crash or a hang.
package struct XMLReader {
    let rules: XMLRules
    /// UTF-8 made only of characters XML allows (`XMLInput` checked it).
    let bytes: [UInt8]
    var index: Int
    /// The open elements, innermost last.
    private var open: [OpenElement] = []
    private var namespaces = XMLNamespaces()
    /// An empty element (`<a/>`) was reported as a start: its end comes next.
    private var pendingEnd = false
    private var sawRoot = false
    private var sawDoctype = false
    /// The DOCTYPE names an external DTD, never read: entities it may declare stay as written.
    var externalSubset = false
    /// Where text and attribute values are put together, kept between events.
    var buffer: [UInt8] = []
    /// The attributes of the start tag being read, by where their names are.
    private var pendingAttributes: [(name: Range<Int>, value: String)] = []
    /// Where the names of that tag's attributes are, declarations included, and the names
    /// themselves once there are many (`checkUnique`).
    private var attributeNames: [Range<Int>] = []
    private var attributeSet: Set<String> = []

    private struct OpenElement {
        var name: XMLName
        /// Where its qualified name is in `bytes`, to check the end tag against.
        var written: Range<Int>
        /// The namespace declarations in force before it.
        var mark: Int
    }

    /// A reader of `bytes`, whose encoding (byte order mark, declaration) is read first.
    package init(_ bytes: [UInt8], rules: XMLRules) throws {
        let input = try XMLInput(bytes, rules: rules)
        self.rules = rules
        self.bytes = input.bytes
        index = input.start
    }

    /// The elements open now; after a start, counting the element it started.
    package var depth: Int { open.count }

    /// The next event; nil once the root element has closed and only comments and white
    /// space followed.
    package mutating func next() throws -> XMLEvent? {
        if pendingEnd {
            pendingEnd = false
            return .end(close())
        }
        while index < bytes.count {
            let byte = bytes[index]
            if open.isEmpty {
                if let root = try outsideRoot() { return .start(root) }
            } else if byte == UInt8(ascii: "<") && at("</") {
                return .end(try endTag())
            } else if byte == UInt8(ascii: "<") && !at("<!") && !at("<?") {
                return .start(try startTag())
            } else if let text = try text() {
                return .text(text)
            }
        }
        if let innermost = open.last { throw fail("the document ends before </\(shown(innermost.written))>") }
        guard sawRoot else { throw fail("no root element") }
        return nil
    }

    // MARK: Around the root element

    /// One step before or after the root: white space, a comment, an instruction, the DOCTYPE,
    /// or the root's start tag, which is returned.
    private mutating func outsideRoot() throws -> XMLStartTag? {
        let byte = bytes[index]
        if XMLInput.isSpace(byte) {
            index += 1
        } else if byte != UInt8(ascii: "<") {
            throw fail(sawRoot ? "text after the root element" : "text before the root element")
        } else if at("<!--") {
            try skipComment()
        } else if at("<?") {
            try skipInstruction()
        } else if at("<!DOCTYPE") && !sawRoot && !sawDoctype {
            try skipDoctype()
        } else if at("<!") || at("</") {
            throw fail(sawRoot ? "markup after the root element" : "markup before the root element")
        } else if sawRoot {
            throw fail("a second root element")
        } else {
            sawRoot = true
            return try startTag()
        }
        return nil
    }

    /// `<!DOCTYPE name (SYSTEM "…" | PUBLIC "…" "…")? >`, where the rules allow one; a `[` of
    /// declarations is refused before any is read, so no entity is ever declared.
    private mutating func skipDoctype() throws {
        guard rules.plainDoctype else { throw refuse("a DOCTYPE") }
        sawDoctype = true
        index += 9
        guard skipSpace(), try !name(in: "a DOCTYPE").isEmpty else { throw fail("a DOCTYPE that is not one") }
        while true {
            _ = skipSpace()
            guard index < bytes.count else { throw fail("a DOCTYPE that does not end") }
            switch bytes[index] {
            case UInt8(ascii: ">"):
                index += 1
                return
            case UInt8(ascii: "["):
                throw refuse("a DOCTYPE with declarations")
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = bytes[(index + 1)...].firstIndex(of: bytes[index]) else { throw fail("a DOCTYPE that does not end") }
                index = close + 1
            default:
                let keyword = try name(in: "a DOCTYPE")
                guard keyword == "SYSTEM" || keyword == "PUBLIC" else { throw fail("a DOCTYPE that is not one") }
                externalSubset = true
            }
        }
    }

    // MARK: Tags

    private mutating func startTag() throws -> XMLStartTag {
        guard open.count < rules.maxDepth else { throw fail("elements nested deeper than \(rules.maxDepth)") }
        index += 1
        let qualified = try nameRange(in: "a start tag")
        let mark = namespaces.mark
        pendingAttributes.removeAll(keepingCapacity: true)
        attributeNames.removeAll(keepingCapacity: true)
        var empty = false
        while true {
            let spaced = skipSpace()
            guard index < bytes.count else { throw fail("the document ends inside <\(shown(qualified))>") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if at("/>") {
                index += 2
                empty = true
                break
            }
            guard spaced else { throw fail("attributes of <\(shown(qualified))> not separated by space") }
            guard attributeNames.count < XMLRules.maxAttributes else {
                throw fail("more than \(XMLRules.maxAttributes) attributes on <\(shown(qualified))>")
            }
            let attribute = try nameRange(in: "an attribute")
            _ = skipSpace()
            guard at("=") else { throw fail("an attribute \(shown(attribute)) without a value") }
            index += 1
            _ = skipSpace()
            let value = try attributeValue()
            try checkUnique(attribute)
            if matches("xmlns", at: attribute.lowerBound)
                && (attribute.count == 5 || bytes[attribute.lowerBound + 5] == UInt8(ascii: ":")) {
                try declare(text(of: attribute), value)
            } else {
                pendingAttributes.append((attribute, value))
            }
        }
        let name = try resolve(qualified, isElement: true)
        var attributes: [(name: XMLName, value: String)] = []
        attributes.reserveCapacity(pendingAttributes.count)
        for attribute in pendingAttributes {
            attributes.append((try resolve(attribute.name, isElement: false), attribute.value))
        }
        open.append(OpenElement(name: name, written: qualified, mark: mark))
        pendingEnd = empty
        return XMLStartTag(name: name, attributes: attributes)
    }

    private mutating func endTag() throws -> XMLName {
        index += 2
        let written = try nameRange(in: "an end tag")
        guard let innermost = open.last else { throw fail("</\(shown(written))> with no element open") }
        guard same(written, innermost.written) else {
            throw fail("</\(shown(written))> where </\(shown(innermost.written))> was expected")
        }
        _ = skipSpace()
        guard at(">") else { throw fail("an end tag </\(shown(written))> that does not end with >") }
        index += 1
        return close()
    }

    /// Closes the innermost element: its namespace declarations end with it.
    private mutating func close() -> XMLName {
        let element = open.removeLast()
        namespaces.pop(to: element.mark)
        return element.name
    }

    // MARK: Names and namespaces

    /// `xmlns="…"` or `xmlns:p="…"` (Namespaces in XML 1.0 §3): `xml` and `xmlns` keep theirs,
    /// and a prefix cannot be bound to nothing.
    private mutating func declare(_ written: String, _ uri: String) throws {
        let prefix = written == "xmlns" ? "" : String(written.dropFirst(6))
        guard !prefix.contains(":"), prefix != "xmlns", (prefix == "xml") == (uri == XMLNamespaces.xml),
              uri != "http://www.w3.org/2000/xmlns/", prefix.isEmpty || !uri.isEmpty else {
            throw fail("a namespace declaration \(written)=\"\(uri.prefix(60))\" that XML forbids")
        }
        namespaces.declare(prefix, uri)
    }

    /// The name written at `range`, its prefix resolved: unprefixed attributes are in no namespace,
    /// unprefixed elements in the default one.
    private func resolve(_ range: Range<Int>, isElement: Bool) throws -> XMLName {
        guard let colon = bytes[range].firstIndex(of: UInt8(ascii: ":")) else {
            let local = text(of: range)
            return XMLName(namespace: isElement ? namespaces.uri("") ?? "" : "", local: local)
        }
        guard colon > range.lowerBound, colon + 1 < range.upperBound else {
            throw fail("a name \(shown(range)) that is not prefix:name")
        }
        let prefix = text(of: range.lowerBound..<colon), local = text(of: (colon + 1)..<range.upperBound)
        if let uri = namespaces.uri(prefix) { return XMLName(namespace: uri, local: local, prefix: prefix) }
        guard rules.undeclaredPrefixes else { throw fail("the prefix \(prefix): that no xmlns:\(prefix) declares") }
        return XMLName(namespace: "", local: local, prefix: prefix)
    }

    /// An attribute may appear once on an element: compared byte for byte with the ones before
    /// it, through a set once there are many, so that hundreds of attributes stay cheap.
    private mutating func checkUnique(_ attribute: Range<Int>) throws {
        attributeNames.append(attribute)
        if attributeNames.count <= 16 {
            for earlier in attributeNames.dropLast() where same(earlier, attribute) {
                throw fail("the attribute \(shown(attribute)) twice on one element")
            }
            return
        }
        if attributeNames.count == 17 {
            attributeSet.removeAll(keepingCapacity: true)
            for earlier in attributeNames.dropLast() { attributeSet.insert(text(of: earlier)) }
        }
        guard attributeSet.insert(text(of: attribute)).inserted else {
            throw fail("the attribute \(shown(attribute)) twice on one element")
        }
    }

    /// Whether two ranges of the document hold the same bytes.
    func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
        return true
    }
}
