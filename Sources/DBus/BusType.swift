/// A Swift type that stands for a D-Bus type: method arguments, answers and signal arguments are
/// described with these, so both ends of a call agree on its shape by construction.
package protocol BusType: BusAnswer {
    static var busSignature: String { get }
    /// The value, if `busValue` is of this type.
    init?(busValue: BusValue)
    var busValue: BusValue { get }
}

/// What a method answers: one value (any `BusType`) or none (`BusNothing`). A reply carries
/// `busValues`, and a client reads the answer back from them, in this one way.
package protocol BusAnswer: Sendable {
    static var busSignature: String { get }
    init?(busValues: [BusValue])
    var busValues: [BusValue] { get }
}

extension BusType {
    package init?(busValues: [BusValue]) {
        guard busValues.count == 1, let value = Self(busValue: busValues[0]) else { return nil }
        self = value
    }

    package var busValues: [BusValue] { [busValue] }
}

/// No value: the answer of a method that returns nothing, and so a reply with no body.
package struct BusNothing: BusAnswer, Equatable {
    package static let busSignature = ""
    package init() {}
    package init?(busValues: [BusValue]) {
        guard busValues.isEmpty else { return nil }
    }
    package var busValues: [BusValue] { [] }
}

/// An object path, which D-Bus tells apart from a string.
package struct BusObjectPath: BusType, Hashable {
    package static let busSignature = "o"
    package var path: String
    package init(_ path: String) { self.path = path }
    package init?(busValue: BusValue) {
        guard case .objectPath(let path) = busValue else { return nil }
        self.path = path
    }
    package var busValue: BusValue { .objectPath(path) }
}

/// A Swift value that one case of `BusValue` holds as it is: the case is all it needs to say.
package protocol BusBasicType: BusType {
    static var busCase: @Sendable (Self) -> BusValue { get }
}

extension BusBasicType {
    package init?(busValue: BusValue) {
        guard let value = busValue.basic as? Self else { return nil }
        self = value
    }

    package var busValue: BusValue { Self.busCase(self) }
}

extension Bool: BusBasicType { package static let busSignature = "b", busCase: @Sendable (Bool) -> BusValue = BusValue.bool }
extension Int32: BusBasicType { package static let busSignature = "i", busCase: @Sendable (Int32) -> BusValue = BusValue.int32 }
extension UInt32: BusBasicType { package static let busSignature = "u", busCase: @Sendable (UInt32) -> BusValue = BusValue.uint32 }
extension Int64: BusBasicType { package static let busSignature = "x", busCase: @Sendable (Int64) -> BusValue = BusValue.int64 }
extension UInt64: BusBasicType { package static let busSignature = "t", busCase: @Sendable (UInt64) -> BusValue = BusValue.uint64 }
extension Double: BusBasicType { package static let busSignature = "d", busCase: @Sendable (Double) -> BusValue = BusValue.double }
extension String: BusBasicType { package static let busSignature = "s", busCase: @Sendable (String) -> BusValue = BusValue.string }

extension Array: BusType, BusAnswer where Element: BusType {
    package static var busSignature: String { "a" + Element.busSignature }
    package init?(busValue: BusValue) {
        guard case .array(Element.busSignature, let elements) = busValue else { return nil }
        var values: [Element] = []
        for element in elements {
            guard let value = Element(busValue: element) else { return nil }
            values.append(value)
        }
        self = values
    }
    package var busValue: BusValue { .array(element: Element.busSignature, map(\.busValue)) }
}
