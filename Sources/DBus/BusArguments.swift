import CSystemd

/// Reads a method call's arguments one by one (on the bus thread); each returns nil when the
/// next argument is missing or of another type, so a handler can answer InvalidArgs.
package enum BusArguments {
    /// A string-like argument (`s` or `o`).
    package static func string(_ message: OpaquePointer, _ type: Character) -> String? {
        var text: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(type.asciiValue!), &text) > 0, let text else { return nil }
        return String(cString: text)
    }

    package static func objectPaths(_ message: OpaquePointer) -> [String]? {
        array(message, of: "o")
    }

    static func strings(_ message: OpaquePointer) -> [String]? {
        array(message, of: "s")
    }

    static func uint32(_ message: OpaquePointer) -> UInt32? {
        var value: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value) > 0 else { return nil }
        return value
    }

    static func bool(_ message: OpaquePointer) -> Bool? {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &value) > 0 else { return nil }
        return value != 0
    }

    /// Only `s`/`o` arrays are read, so an element can never be mistaken for another type.
    private static func array(_ message: OpaquePointer, of type: Character) -> [String]? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), String(type)) > 0 else { return nil }
        var texts: [String] = []
        while let text = string(message, type) { texts.append(text) }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return texts
    }
}
