/// An argument a client sends (the subset `cloudplayerctl` needs), without exposing how the bus
/// encodes it.
public struct BusArgument: Sendable {
    let value: BusValue

    public static func string(_ text: String) -> BusArgument { BusArgument(value: .string(text)) }
    public static func strings(_ texts: [String]) -> BusArgument { BusArgument(value: .strings(texts)) }
    public static func bool(_ flag: Bool) -> BusArgument { BusArgument(value: .bool(flag)) }
    public static func uint32(_ value: UInt32) -> BusArgument { BusArgument(value: .uint32(value)) }
    public static func int32(_ value: Int32) -> BusArgument { BusArgument(value: .int32(value)) }
    public static func int64(_ value: Int64) -> BusArgument { BusArgument(value: .int64(value)) }
    public static func double(_ value: Double) -> BusArgument { BusArgument(value: .double(value)) }
    public static func objectPath(_ path: String) -> BusArgument { BusArgument(value: .objectPath(path)) }
    public static func objectPaths(_ paths: [String]) -> BusArgument { BusArgument(value: .objectPaths(paths)) }
    public static func int64s(_ values: [Int64]) -> BusArgument { BusArgument(value: .int64s(values)) }
    /// `a{sv}` with string values.
    public static func dictionary(_ entries: [(String, String)]) -> BusArgument {
        BusArgument(value: .dictionary(entries.map { ($0.0, BusValue.string($0.1)) }))
    }
}
