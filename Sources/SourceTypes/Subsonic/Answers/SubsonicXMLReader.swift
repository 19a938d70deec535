import Foundation
import Parsers

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The XML form of a Subsonic answer as elements: attributes kept, text ignored (the API puts
/// what it says in attributes). Checked by `XMLInputGuard` first, like every XML we read.
final class SubsonicXMLReader: NSObject, XMLParserDelegate {
    /// Open elements, innermost last; the finished root lands in `root`.
    private var stack: [SubsonicElement] = []
    private var root: SubsonicElement?

    static func read(_ bytes: [UInt8]) throws -> SubsonicElement {
        let checked = try XMLInputGuard.checked(bytes, kind: "a Subsonic answer")
        let reader = SubsonicXMLReader()
        let parser = XMLParser(data: checked)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), parser.parserError == nil, let root = reader.root else {
            throw ParseError.malformed("a Subsonic answer that is not well-formed XML")
        }
        guard root.name == "subsonic-response" else { throw ParseError.unsupported("XML without a subsonic-response") }
        return root
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard stack.count < 64 else { return parser.abortParsing() }
        stack.append(SubsonicElement(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}
