/// An argument a client sends (the subset `cloudplayerctl` needs), without exposing how the bus
/// encodes it.
package struct BusArgument: Sendable {
    let value: BusValue

    package static func string(_ text: String) -> BusArgument { BusArgument(value: .string(text)) }
    package static func strings(_ texts: [String]) -> BusArgument { BusArgument(value: .strings(texts)) }
    package static func bool(_ flag: Bool) -> BusArgument { BusArgument(value: .bool(flag)) }
    package static func uint32(_ value: UInt32) -> BusArgument { BusArgument(value: .uint32(value)) }
    package static func int32(_ value: Int32) -> BusArgument { BusArgument(value: .int32(value)) }
    package static func int64(_ value: Int64) -> BusArgument { BusArgument(value: .int64(value)) }
    package static func double(_ value: Double) -> BusArgument { BusArgument(value: .double(value)) }
    package static func objectPath(_ path: String) -> BusArgument { BusArgument(value: .objectPath(path)) }
    package static func objectPaths(_ paths: [String]) -> BusArgument { BusArgument(value: .objectPaths(paths)) }
    package static func int64s(_ values: [Int64]) -> BusArgument { BusArgument(value: .int64s(values)) }
    /// `a{sv}` with string values.
    package static func dictionary(_ entries: [(String, String)]) -> BusArgument {
        BusArgument(value: .dictionary(entries.map { ($0.0, BusValue.string($0.1)) }))
    }
}
