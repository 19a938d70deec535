/// What `XMLReader` reads next: a start tag (an empty element's `<a/>` is a start and an end),
/// an end tag, or the text between two tags — character data, references, CDATA sections, with
/// comments left out — as one string.
package enum XMLEvent: Sendable, Equatable {
    case start(XMLStartTag)
    case end(XMLName)
    case text(String)
}

/// An element or attribute name with its namespace resolved.
package struct XMLName: Sendable, Equatable {
    /// The namespace's URI; empty for none (and, where `XMLRules.undeclaredPrefixes` allows
    /// one, for a prefix nobody declared).
    package var namespace: String
    package var local: String
    /// The prefix as written, if any.
    package var prefix: String?

    package init(namespace: String = "", local: String, prefix: String? = nil) {
        self.namespace = namespace
        self.local = local
        self.prefix = prefix
    }

    /// The name as written: `prefix:local` or `local`.
    package var qualified: String { prefix.map { "\($0):\(local)" } ?? local }

    /// Whether the name is written `qualified`, without building the qualified name.
    func isWritten(_ qualified: String) -> Bool {
        guard let prefix else { return local == qualified }
        let text = qualified.utf8, head = prefix.utf8, tail = local.utf8
        return text.count == head.count + 1 + tail.count && text.starts(with: head) && text.reversed().starts(with: tail.reversed())
            && text[text.index(text.startIndex, offsetBy: head.count)] == UInt8(ascii: ":")
    }
}

/// A start tag: the element's name and its attributes (namespace declarations left out), in
/// document order.
package struct XMLStartTag: Sendable, Equatable {
    package var name: XMLName
    package var attributes: [(name: XMLName, value: String)]

    package init(name: XMLName, attributes: [(name: XMLName, value: String)] = []) {
        self.name = name
        self.attributes = attributes
    }

    /// The value of the attribute written `qualifiedName` (`href`, `xml:base`).
    package subscript(_ qualifiedName: String) -> String? {
        attributes.first { $0.name.isWritten(qualifiedName) }?.value
    }

    package static func == (lhs: XMLStartTag, rhs: XMLStartTag) -> Bool {
        lhs.name == rhs.name && lhs.attributes.elementsEqual(rhs.attributes) { $0.name == $1.name && $0.value == $1.value }
    }
}
