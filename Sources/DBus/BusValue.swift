/// A D-Bus value, either way: what we append to a message we send and what we read from one we
/// receive, with its exact D-Bus type. A record's values travel as variants and every variant is
/// read back as what it holds; `variant` is for sending one alone (the Secret Service's
/// `OpenSession` takes its input as `v`).
package indirect enum BusValue: Sendable, Equatable {
    case bool(Bool)
    case byte(UInt8)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `aT`: the element signature travels with it, so an empty array still has a type.
    case array(element: String, [BusValue])
    /// `a{sv}`: named values, in this order (MPRIS metadata, our records).
    case record([(String, BusValue)])
    /// `a{KV}` of other key and value types.
    case dictionary(key: String, value: String, [(BusValue, BusValue)])
    /// `(…)`.
    case structure([BusValue])
    /// `v`, holding the value (sent only: a variant read is the value it holds).
    case variant(BusValue)

    /// What a basic value holds, for `BusBasicType` to take back; only a `.string` is a String
    /// (an object path is a `BusObjectPath`), and containers hold no one value.
    var basic: (any Sendable)? {
        switch self {
        case .bool(let value): value
        case .byte(let value): value
        case .int16(let value): value
        case .uint16(let value): value
        case .int32(let value): value
        case .uint32(let value): value
        case .int64(let value): value
        case .uint64(let value): value
        case .double(let value): value
        case .string(let value): value
        case .objectPath, .signature, .array, .record, .dictionary, .structure, .variant: nil
        }
    }

    /// The D-Bus type signature of the value.
    package var signature: String {
        switch self {
        case .bool: "b"
        case .byte: "y"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .record: "a{sv}"
        case .dictionary(let key, let value, _): "a{\(key)\(value)}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    package static func == (lhs: BusValue, rhs: BusValue) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): a == b
        case (.byte(let a), .byte(let b)): a == b
        case (.int16(let a), .int16(let b)): a == b
        case (.uint16(let a), .uint16(let b)): a == b
        case (.int32(let a), .int32(let b)): a == b
        case (.uint32(let a), .uint32(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.uint64(let a), .uint64(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)), (.objectPath(let a), .objectPath(let b)), (.signature(let a), .signature(let b)): a == b
        case (.array(let elementA, let a), .array(let elementB, let b)): elementA == elementB && a == b
        case (.record(let a), .record(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case (.dictionary(let keyA, let valueA, let a), .dictionary(let keyB, let valueB, let b)):
            keyA == keyB && valueA == valueB && a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case (.structure(let a), .structure(let b)): a == b
        case (.variant(let a), .variant(let b)): a == b
        default: false
        }
    }
}
