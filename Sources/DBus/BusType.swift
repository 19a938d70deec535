/// A Swift type that stands for a D-Bus type: method arguments, answers and signal arguments are
/// described with these, so both ends of a call agree on its shape by construction.
package protocol BusType: Sendable {
    static var busSignature: String { get }
    /// The value, if `busValue` is of this type.
    init?(busValue: BusValue)
    var busValue: BusValue { get }
}

/// No value: the answer of a method that returns nothing.
package struct BusNothing: BusType, Equatable {
    package static let busSignature = ""
    package init() {}
    package init?(busValue: BusValue) { nil }
    package var busValue: BusValue { .structure([]) }
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

extension Bool: BusType {
    package static let busSignature = "b"
    package init?(busValue: BusValue) {
        guard case .bool(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .bool(self) }
}

extension Int32: BusType {
    package static let busSignature = "i"
    package init?(busValue: BusValue) {
        guard case .int32(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .int32(self) }
}

extension UInt32: BusType {
    package static let busSignature = "u"
    package init?(busValue: BusValue) {
        guard case .uint32(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .uint32(self) }
}

extension Int64: BusType {
    package static let busSignature = "x"
    package init?(busValue: BusValue) {
        guard case .int64(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .int64(self) }
}

extension UInt64: BusType {
    package static let busSignature = "t"
    package init?(busValue: BusValue) {
        guard case .uint64(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .uint64(self) }
}

extension Double: BusType {
    package static let busSignature = "d"
    package init?(busValue: BusValue) {
        guard case .double(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .double(self) }
}

extension String: BusType {
    package static let busSignature = "s"
    package init?(busValue: BusValue) {
        guard case .string(let value) = busValue else { return nil }
        self = value
    }
    package var busValue: BusValue { .string(self) }
}

extension Array: BusType where Element: BusType {
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
