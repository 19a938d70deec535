import Base
import Glibc

/// Looking into a value read from a reply, whatever its exact type, and printing it as JSON.
extension BusValue {
    /// The value under `key` of a record.
    package subscript(key: String) -> BusValue? {
        guard case .record(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    /// A string, object path or signature.
    package var text: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// Any integer type, as far as it fits.
    package var integer: Int64? {
        switch self {
        case .byte(let value): Int64(value)
        case .int16(let value): Int64(value)
        case .uint16(let value): Int64(value)
        case .int32(let value): Int64(value)
        case .uint32(let value): Int64(value)
        case .int64(let value): value
        case .uint64(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// An array's elements, or a structure's fields.
    package var elements: [BusValue] {
        switch self {
        case .array(_, let elements), .structure(let elements): elements
        default: []
        }
    }

    /// As a JSON value (for `--json`): records and dictionaries become objects, in their order.
    package var json: String {
        switch self {
        case .bool(let flag): flag ? "true" : "false"
        case .double(let value): value.isFinite ? "\(value)" : "null"
        case .string(let text), .objectPath(let text), .signature(let text): Self.quote(text)
        case .array(_, let elements), .structure(let elements): "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .record(let entries): "{" + entries.map { Self.quote($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}"
        case .dictionary(_, _, let entries):
            "{" + entries.map { Self.quote($0.0.text ?? $0.0.json) + ":" + $0.1.json }.joined(separator: ",") + "}"
        case .uint64(let value): String(value)
        case .variant(let value): value.json
        default: integer.map { String($0) } ?? "null"
        }
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u" + scalar.value.hexDigits(4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
