/// An argument a client sends (the subset `cloudplayerctl` needs), without exposing how the bus
/// encodes it.
public struct BusArgument: Sendable {
    let value: BusValue

    public static func string(_ text: String) -> BusArgument { BusArgument(value: .string(text)) }
    public static func strings(_ texts: [String]) -> BusArgument { BusArgument(value: .strings(texts)) }
    public static func bool(_ flag: Bool) -> BusArgument { BusArgument(value: .bool(flag)) }
    public static func uint32(_ value: UInt32) -> BusArgument { BusArgument(value: .uint32(value)) }
}
