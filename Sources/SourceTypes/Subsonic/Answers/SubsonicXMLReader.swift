import Parsers

/// The XML form of a Subsonic answer as elements: attributes kept, text ignored (the API puts
/// what it says in attributes). Read by `XMLReader`, like every XML we read.
enum SubsonicXMLReader {
    static func read(_ bytes: [UInt8]) throws -> SubsonicElement {
        var rules = XMLRules(kind: "a Subsonic answer")
        rules.maxDepth = 64
        var reader = try XMLReader(bytes, rules: rules)
        /// Open elements, innermost last; the finished root lands in `root`.
        var stack: [SubsonicElement] = []
        var root: SubsonicElement?
        while let event = try reader.next() {
            switch event {
            case .start(let element):
                var attributes: [String: String] = [:]
                attributes.reserveCapacity(element.attributes.count)
                for (name, value) in element.attributes { attributes[name.qualified] = value }
                stack.append(SubsonicElement(name: element.name.local, attributes: attributes))
            case .end:
                guard let element = stack.popLast() else { break }
                if stack.isEmpty {
                    root = element
                } else {
                    stack[stack.count - 1].children.append(element)
                }
            case .text: break
            }
        }
        guard let root else { throw ParseError.malformed("a Subsonic answer that is not well-formed XML") }
        guard root.name == "subsonic-response" else { throw ParseError.unsupported("XML without a subsonic-response") }
        return root
    }
}
