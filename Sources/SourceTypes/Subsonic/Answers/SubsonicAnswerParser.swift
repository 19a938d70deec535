import FoundationEssentials
import Parsers

/// Reads a Subsonic answer, JSON (`f=json`, what we ask for) or XML (what a server that ignores
/// `f` sends), into one `SubsonicAnswer`. A document that is neither, or has no
/// `subsonic-response` envelope (a login page, a proxy's error), is an error.
package enum SubsonicAnswerParser {
    package static func parse(_ bytes: [UInt8]) throws -> SubsonicAnswer {
        // The first byte that is not a byte order mark or white space says which form it is.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = text.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        let envelope: SubsonicElement
        switch first {
        case UInt8(ascii: "{"): envelope = try json(Array(text))
        case UInt8(ascii: "<"): envelope = try SubsonicXMLReader.read(bytes)
        default: throw ParseError.unsupported("an answer that is neither JSON nor XML")
        }
        var answer = SubsonicAnswer(envelope: envelope, version: envelope["version"],
                                    isOpenSubsonic: envelope["openSubsonic"] == "true", failure: nil)
        if envelope["status"] != "ok" {
            let error = envelope.first("error")
            answer.failure = (error?.integer("code") ?? 0, error?["message"] ?? "no message")
        }
        return answer
    }

    private static func json(_ bytes: [UInt8]) throws -> SubsonicElement {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ParseError.malformed("an answer that is not well-formed JSON")
        }
        guard case .object(let members) = value, case .object(let envelope)? = members["subsonic-response"] else {
            throw ParseError.unsupported("JSON without a subsonic-response")
        }
        return element("subsonic-response", envelope)
    }

    /// A JSON object as an element: scalars are its attributes, objects its children, and an
    /// array of objects repeated children of the array's name (as XML repeats elements).
    private static func element(_ name: String, _ members: [String: JSONValue]) -> SubsonicElement {
        var element = SubsonicElement(name: name)
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .scalar(let text): element.attributes[key] = text
            case .object(let child): element.children.append(Self.element(key, child))
            case .array(let items):
                for item in items {
                    switch item {
                    case .object(let child): element.children.append(Self.element(key, child))
                    case .scalar(let text): element.children.append(SubsonicElement(name: key, attributes: ["value": text]))
                    case .array, .null: break
                    }
                }
            case .null: break
            }
        }
        return element
    }
}

/// Any JSON value, scalars kept as their text.
private enum JSONValue: Decodable {
    case scalar(String)
    case object([String: JSONValue])
    case array([JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .scalar(bool ? "true" : "false")
        } else if let integer = try? container.decode(Int64.self) {
            self = .scalar(String(integer))
        } else if let number = try? container.decode(Double.self) {
            self = .scalar(String(number))
        } else if let text = try? container.decode(String.self) {
            self = .scalar(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
