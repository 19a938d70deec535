/// The JSON argument of an API call, written by hand so that it is "HTTP header safe" as the
/// `Dropbox-API-Arg` header must be: 0x7F and every non-ASCII character as a `\uXXXX` escape
/// (UTF-16, a surrogate pair above U+FFFF). The same text serves as an RPC call's body.
/// https://www.dropbox.com/developers/reference/json-encoding
package enum DropboxArgument {
    package enum Value {
        case string(String)
        case bool(Bool)
        case int(Int)
    }

    package static func json(_ fields: [(String, Value)]) -> String {
        "{" + fields.map { key, value in
            let text = switch value {
            case .string(let string): quoted(string)
            case .bool(let bool): bool ? "true" : "false"
            case .int(let int): String(int)
            }
            return quoted(key) + ": " + text
        }.joined(separator: ", ") + "}"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }
}
