import CSystemd

/// A D-Bus value as MPRIS needs them, appended to an sd-bus message with the non-variadic API
/// (Swift cannot call `sd_bus_message_append`).
package enum BusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case double(Double)
    case strings([String])
    case objectPaths([String])
    case int64s([Int64])
    /// `a{sv}`: a dictionary of variants, in this order.
    case dictionary([(String, BusValue)])
    /// `aa{sv}`: a list of such dictionaries.
    case dictionaries([[(String, BusValue)]])
    /// `a(oss)`: MPRIS playlists — id, name, icon.
    case playlists([MPRISPlaylist])
    /// `(b(oss))`: MPRIS's "maybe a playlist".
    case maybePlaylist(MPRISPlaylist?)

    package static func == (lhs: BusValue, rhs: BusValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.objectPath(let a), .objectPath(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.int32(let a), .int32(let b)): a == b
        case (.uint32(let a), .uint32(let b)): a == b
        case (.playlists(let a), .playlists(let b)): a == b
        case (.maybePlaylist(let a), .maybePlaylist(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.strings(let a), .strings(let b)), (.objectPaths(let a), .objectPaths(let b)): a == b
        case (.int64s(let a), .int64s(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case (.dictionaries(let a), .dictionaries(let b)): a.map { BusValue.dictionary($0) } == b.map { BusValue.dictionary($0) }
        default: false
        }
    }

    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .int32: "i"
        case .uint32: "u"
        case .playlists: "a(oss)"
        case .maybePlaylist: "(b(oss))"
        case .int64: "x"
        case .double: "d"
        case .strings: "as"
        case .objectPaths: "ao"
        case .int64s: "ax"
        case .dictionary: "a{sv}"
        case .dictionaries: "aa{sv}"
        }
    }

    /// Appends the value; returns a negative errno on failure, as sd-bus does.
    @discardableResult
    package func append(to message: OpaquePointer) -> Int32 {
        switch self {
        case .string(let text): return text.withCString { sd_bus_message_append_basic(message, Self.type("s"), $0) }
        case .objectPath(let path): return path.withCString { sd_bus_message_append_basic(message, Self.type("o"), $0) }
        case .bool(let flag):
            var value: Int32 = flag ? 1 : 0
            return sd_bus_message_append_basic(message, Self.type("b"), &value)
        case .int32(var value): return sd_bus_message_append_basic(message, Self.type("i"), &value)
        case .uint32(var value): return sd_bus_message_append_basic(message, Self.type("u"), &value)
        case .playlists(let playlists):
            var status = sd_bus_message_open_container(message, Self.type("a"), "(oss)")
            for playlist in playlists where status >= 0 { status = playlist.append(to: message) }
            return status >= 0 ? sd_bus_message_close_container(message) : status
        case .maybePlaylist(let playlist):
            var status = sd_bus_message_open_container(message, Self.type("r"), "b(oss)")
            if status >= 0 { status = BusValue.bool(playlist != nil).append(to: message) }
            if status >= 0 { status = (playlist ?? MPRISPlaylist(id: "/", name: "", icon: "")).append(to: message) }
            return status >= 0 ? sd_bus_message_close_container(message) : status
        case .int64(var value): return sd_bus_message_append_basic(message, Self.type("x"), &value)
        case .double(var value): return sd_bus_message_append_basic(message, Self.type("d"), &value)
        case .strings(let texts):
            return Self.appendArray(of: "s", texts.map(BusValue.string), to: message)
        case .objectPaths(let paths):
            return Self.appendArray(of: "o", paths.map(BusValue.objectPath), to: message)
        case .int64s(let values):
            return Self.appendArray(of: "x", values.map(BusValue.int64), to: message)
        case .dictionaries(let dictionaries):
            return Self.appendArray(of: "a{sv}", dictionaries.map(BusValue.dictionary), to: message)
        case .dictionary(let entries):
            var status = sd_bus_message_open_container(message, Self.type("a"), "{sv}")
            for (key, value) in entries where status >= 0 {
                status = sd_bus_message_open_container(message, Self.type("e"), "sv")
                if status >= 0 { status = BusValue.string(key).append(to: message) }
                if status >= 0 { status = sd_bus_message_open_container(message, Self.type("v"), value.signature) }
                if status >= 0 { status = value.append(to: message) }
                if status >= 0 { status = sd_bus_message_close_container(message) }
                if status >= 0 { status = sd_bus_message_close_container(message) }
            }
            return status >= 0 ? sd_bus_message_close_container(message) : status
        }
    }

    private static func appendArray(of signature: String, _ elements: [BusValue], to message: OpaquePointer) -> Int32 {
        var status = sd_bus_message_open_container(message, type("a"), signature)
        for element in elements where status >= 0 { status = element.append(to: message) }
        return status >= 0 ? sd_bus_message_close_container(message) : status
    }

    private static func type(_ code: Character) -> CChar {
        CChar(code.asciiValue!)
    }
}

/// An MPRIS playlist as the Playlists interface names it.
package struct MPRISPlaylist: Sendable, Equatable {
    package var id: String
    package var name: String
    package var icon: String

    package init(id: String, name: String, icon: String) {
        self.id = id
        self.name = name
        self.icon = icon
    }

    func append(to message: OpaquePointer) -> Int32 {
        var status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "r")), "oss")
        for field in [BusValue.objectPath(id), .string(name), .string(icon)] where status >= 0 {
            status = field.append(to: message)
        }
        return status >= 0 ? sd_bus_message_close_container(message) : status
    }
}
