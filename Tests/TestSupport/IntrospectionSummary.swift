import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// D-Bus introspection XML reduced to one line per member — interface, kind, name, argument
/// types, names and directions, property type, access and change annotation — so two documents
/// can be compared for what they promise, not for their layout.
public enum IntrospectionSummary {
    /// The lines for interfaces whose names start with `prefix`, sorted.
    public static func lines(of xml: String, interfacesStartingWith prefix: String) throws -> [String] {
        let collector = Collector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw TestSupportError("not introspection XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return collector.lines.filter { $0.hasPrefix(prefix) }.sorted()
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var lines: [String] = []
        private var interface = ""
        private var member: [String] = []

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            switch element {
            case "interface":
                interface = attributes["name"] ?? ""
            case "method", "signal":
                member = [interface, element, attributes["name"] ?? ""]
            case "property":
                member = [interface, element, attributes["name"] ?? "", attributes["type"] ?? "", attributes["access"] ?? ""]
            case "arg":
                member.append("\(attributes["direction"] ?? "out"):\(attributes["type"] ?? ""):\(attributes["name"] ?? "")")
            case "annotation":
                member.append("\(attributes["name"] ?? "")=\(attributes["value"] ?? "")")
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if ["method", "signal", "property"].contains(element) {
                lines.append(member.joined(separator: " "))
                member = []
            }
        }
    }
}
