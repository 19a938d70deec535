import CSystemd
import Foundation

/// A D-Bus value as a client reads it from a reply, whatever its signature: what
/// `cloudplayerctl` turns into tables and JSON. Containers nest; dictionaries keep their order.
package indirect enum BusData: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case array([BusData])
    /// A dictionary (`a{..}`), its keys as text.
    case dictionary([(String, BusData)])

    package static func == (lhs: BusData, rhs: BusData) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// The value under `key` of a dictionary.
    package subscript(key: String) -> BusData? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    package var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    package var integer: Int64? {
        switch self {
        case .int(let value): value
        case .uint(let value): Int64(clamping: value)
        default: nil
        }
    }

    package var number: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        default: nil
        }
    }

    package var flag: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    package var elements: [BusData] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// As a JSON value (for `--json`): dictionaries become objects, in their order.
    package var json: String {
        switch self {
        case .string(let text): Self.quote(text)
        case .bool(let flag): flag ? "true" : "false"
        case .int(let value): String(value)
        case .uint(let value): String(value)
        case .double(let value): value.isFinite ? "\(value)" : "null"
        case .array(let elements): "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .dictionary(let entries): "{" + entries.map { Self.quote($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}"
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
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Reads every remaining value of `message` (on the bus thread).
    package static func readAll(from message: OpaquePointer) -> [BusData]? {
        var values: [BusData] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let status = sd_bus_message_peek_type(message, &type, &contents)
            if status == 0 { return values }
            guard status > 0, let value = read(from: message, depth: 0) else { return nil }
            values.append(value)
        }
    }

    /// Reads the next value; nil on a malformed message or nesting deeper than D-Bus allows.
    private static func read(from message: OpaquePointer, depth: Int) -> BusData? {
        guard depth < 64 else { return nil }
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contentsPointer) > 0 else { return nil }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"):
            guard sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
            var elements: [BusData] = []
            var entries: [(String, BusData)] = []
            let isDictionary = contents.hasPrefix("{")
            while sd_bus_message_at_end(message, 0) == 0 {
                if isDictionary {
                    guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), String(contents.dropFirst().dropLast())) > 0,
                          let key = read(from: message, depth: depth + 1), let value = read(from: message, depth: depth + 1),
                          sd_bus_message_exit_container(message) >= 0 else { return nil }
                    entries.append((key.text ?? key.json, value))
                } else {
                    guard let element = read(from: message, depth: depth + 1) else { return nil }
                    elements.append(element)
                }
            }
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return isDictionary ? .dictionary(entries) : .array(elements)
        case UInt8(ascii: "v"), UInt8(ascii: "r"):
            guard sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
            var inner: [BusData] = []
            while sd_bus_message_at_end(message, 0) == 0 {
                guard let value = read(from: message, depth: depth + 1) else { return nil }
                inner.append(value)
            }
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return UInt8(bitPattern: type) == UInt8(ascii: "v") ? inner.first : .array(inner)
        default:
            return readBasic(type, from: message)
        }
    }

    private static func readBasic(_ type: CChar, from message: OpaquePointer) -> BusData? {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &text) > 0, let text else { return nil }
            return .string(String(cString: text))
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { return nil }
            return .bool(flag != 0)
        case UInt8(ascii: "d"):
            var value = 0.0
            guard sd_bus_message_read_basic(message, type, &value) > 0 else { return nil }
            return .double(value)
        case UInt8(ascii: "y"):
            var value: UInt8 = 0
            guard sd_bus_message_read_basic(message, type, &value) > 0 else { return nil }
            return .uint(UInt64(value))
        case UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"),
             UInt8(ascii: "x"), UInt8(ascii: "t"):
            var raw: UInt64 = 0  // large enough for every integer type; read into its low bytes
            guard sd_bus_message_read_basic(message, type, &raw) > 0 else { return nil }
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "n"): return .int(Int64(Int16(truncatingIfNeeded: raw)))
            case UInt8(ascii: "q"): return .uint(UInt64(UInt16(truncatingIfNeeded: raw)))
            case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int(Int64(Int32(truncatingIfNeeded: raw)))
            case UInt8(ascii: "u"): return .uint(UInt64(UInt32(truncatingIfNeeded: raw)))
            case UInt8(ascii: "x"): return .int(Int64(bitPattern: raw))
            default: return .uint(raw)
            }
        default:
            return nil
        }
    }
}
