import CSystemd

/// Appending to and reading from sd-bus messages with the non-variadic API (Swift cannot call
/// `sd_bus_message_append` or `sd_bus_message_read`). Only on the bus thread.
extension BusValue {
    /// Appends the value; returns a negative errno on failure, as sd-bus does.
    @discardableResult
    package func append(to message: OpaquePointer) -> Int32 {
        switch self {
        case .bool(let flag):
            var value: Int32 = flag ? 1 : 0
            return sd_bus_message_append_basic(message, Self.code("b"), &value)
        case .byte(var value): return sd_bus_message_append_basic(message, Self.code("y"), &value)
        case .int16(var value): return sd_bus_message_append_basic(message, Self.code("n"), &value)
        case .uint16(var value): return sd_bus_message_append_basic(message, Self.code("q"), &value)
        case .int32(var value): return sd_bus_message_append_basic(message, Self.code("i"), &value)
        case .uint32(var value): return sd_bus_message_append_basic(message, Self.code("u"), &value)
        case .int64(var value): return sd_bus_message_append_basic(message, Self.code("x"), &value)
        case .uint64(var value): return sd_bus_message_append_basic(message, Self.code("t"), &value)
        case .double(var value): return sd_bus_message_append_basic(message, Self.code("d"), &value)
        case .string(let text): return text.withCString { sd_bus_message_append_basic(message, Self.code("s"), $0) }
        case .objectPath(let path): return path.withCString { sd_bus_message_append_basic(message, Self.code("o"), $0) }
        case .signature(let text): return text.withCString { sd_bus_message_append_basic(message, Self.code("g"), $0) }
        case .array(let element, let elements):
            return Self.container("a", element, message) { elements.appendAll(to: message) }
        case .record(let entries):
            return Self.container("a", "{sv}", message) {
                var status: Int32 = 0
                for (key, value) in entries where status >= 0 {
                    status = Self.container("e", "sv", message) {
                        var status = BusValue.string(key).append(to: message)
                        if status >= 0 { status = Self.container("v", value.signature, message) { value.append(to: message) } }
                        return status
                    }
                }
                return status
            }
        case .dictionary(let key, let value, let entries):
            return Self.container("a", "{\(key)\(value)}", message) {
                var status: Int32 = 0
                for (entryKey, entryValue) in entries where status >= 0 {
                    status = Self.container("e", key + value, message) { [entryKey, entryValue].appendAll(to: message) }
                }
                return status
            }
        case .structure(let fields):
            return Self.container("r", fields.map(\.signature).joined(), message) { fields.appendAll(to: message) }
        case .variant(let value):
            return Self.container("v", value.signature, message) { value.append(to: message) }
        }
    }

    /// Every remaining value of `message`; nil if it is malformed.
    package static func readAll(from message: OpaquePointer) -> [BusValue]? {
        var values: [BusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let status = sd_bus_message_peek_type(message, &type, &contents)
            if status == 0 { return values }
            guard status > 0, let value = read(from: message, depth: 0) else { return nil }
            values.append(value)
        }
    }

    /// The next value; nil on a malformed message or nesting deeper than D-Bus allows.
    package static func read(from message: OpaquePointer, depth: Int = 0) -> BusValue? {
        guard depth < 64 else { return nil }
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contentsPointer) > 0 else { return nil }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a") where contents.hasPrefix("{"):
            let entry = String(contents.dropFirst().dropLast())
            guard let pairs = readContainer(type, contents, message, depth: depth, { depth -> (BusValue, BusValue)? in
                guard sd_bus_message_enter_container(message, code("e"), entry) > 0,
                      let key = read(from: message, depth: depth), let value = read(from: message, depth: depth),
                      sd_bus_message_exit_container(message) >= 0 else { return nil }
                return (key, value)
            }) else { return nil }
            if contents == "{sv}" { return .record(pairs.map { ($0.0.text ?? "", $0.1) }) }
            let keySignature = String(entry.prefix(1))
            return .dictionary(key: keySignature, value: String(entry.dropFirst()), pairs)
        case UInt8(ascii: "a"):
            return readContainer(type, contents, message, depth: depth) { read(from: message, depth: $0) }
                .map { .array(element: contents, $0) }
        case UInt8(ascii: "r"):
            return readContainer(type, contents, message, depth: depth) { read(from: message, depth: $0) }
                .map { .structure($0) }
        case UInt8(ascii: "v"):
            return readContainer(type, contents, message, depth: depth) { read(from: message, depth: $0) }?.first
        default:
            return readBasic(type, from: message)
        }
    }

    private static func readContainer<T>(_ type: CChar, _ contents: String, _ message: OpaquePointer, depth: Int,
                                         _ element: (Int) -> T?) -> [T]? {
        guard sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
        var elements: [T] = []
        while sd_bus_message_at_end(message, 0) == 0 {
            guard let value = element(depth + 1) else { return nil }
            elements.append(value)
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return elements
    }

    private static func readBasic(_ type: CChar, from message: OpaquePointer) -> BusValue? {
        func number<T: BitwiseCopyable>(_ zero: T) -> T? {
            var value = zero
            return sd_bus_message_read_basic(message, type, &value) > 0 ? value : nil
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &text) > 0, let text else { return nil }
            let string = String(cString: text)
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "o"): return .objectPath(string)
            case UInt8(ascii: "g"): return .signature(string)
            default: return .string(string)
            }
        case UInt8(ascii: "b"): return number(Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "y"): return number(UInt8(0)).map(BusValue.byte)
        case UInt8(ascii: "n"): return number(Int16(0)).map(BusValue.int16)
        case UInt8(ascii: "q"): return number(UInt16(0)).map(BusValue.uint16)
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return number(Int32(0)).map(BusValue.int32)
        case UInt8(ascii: "u"): return number(UInt32(0)).map(BusValue.uint32)
        case UInt8(ascii: "x"): return number(Int64(0)).map(BusValue.int64)
        case UInt8(ascii: "t"): return number(UInt64(0)).map(BusValue.uint64)
        case UInt8(ascii: "d"): return number(0.0).map(BusValue.double)
        default: return nil
        }
    }

    /// Opens a container, appends its contents with `body`, closes it.
    private static func container(_ type: Character, _ contents: String, _ message: OpaquePointer,
                                  _ body: () -> Int32) -> Int32 {
        var status = sd_bus_message_open_container(message, code(type), contents)
        if status >= 0 { status = body() }
        return status >= 0 ? sd_bus_message_close_container(message) : status
    }

    private static func code(_ type: Character) -> CChar {
        CChar(type.asciiValue!)
    }
}

extension [BusValue] {
    /// Appends each value in turn; stops at the first failure (a negative errno).
    package func appendAll(to message: OpaquePointer) -> Int32 {
        var status: Int32 = 0
        for value in self where status >= 0 { status = value.append(to: message) }
        return status
    }
}
