/// One method of a D-Bus interface, typed: its name, the types and names of its arguments, the
/// type and name of its answer. The same description registers the method on the daemon's object
/// (`BusInterface`), makes a client's call (`BusClient.call`), and is checked against the
/// introspection XML we ship — so the three can never drift apart.
package struct BusMethod<each Argument: BusType, Answer: BusAnswer>: Sendable {
    package let name: String
    package let argumentNames: [String]
    /// The answer's name in the introspection XML; nil when it returns nothing.
    package let answerName: String?

    package init(_ name: String, arguments argumentNames: [String] = [], answer answerName: String? = nil) {
        self.name = name
        self.argumentNames = argumentNames
        self.answerName = answerName
    }

    package var argumentSignature: String { BusArguments<repeat each Argument>.signature }

    package var answerSignature: String { Answer.busSignature }

    /// The arguments of a call, in order, as they travel.
    package func encode(_ arguments: repeat each Argument) -> [BusValue] {
        BusArguments.encode(repeat each arguments)
    }

    /// A call's arguments, or nil if they are not of this method's types.
    package func decode(_ values: [BusValue]) -> (repeat each Argument)? {
        var remaining = values[...]
        func next<T: BusType>(_ type: T.Type) throws -> T {
            guard let value = remaining.popFirst(), let typed = T(busValue: value) else { throw ArgumentMismatch() }
            return typed
        }
        // A throw is the one way out of the middle of a pack expansion.
        guard let arguments = try? (repeat next((each Argument).self)), remaining.isEmpty else { return nil }
        return arguments
    }

    /// What it is in the introspection XML: name, signatures and argument names.
    package var introspection: BusMember {
        BusMember(.method, name: name, arguments: BusArguments<repeat each Argument>.introspection(argumentNames, direction: "in")
                    + (answerName.map { [BusMember.Argument(name: $0, type: answerSignature, direction: "out")] } ?? []))
    }
}

/// An argument not of the type a method takes.
private struct ArgumentMismatch: Error {}

/// One signal of a D-Bus interface, typed like a method.
package struct BusSignalDescription<each Argument: BusType>: Sendable {
    package let name: String
    package let argumentNames: [String]

    package init(_ name: String, arguments argumentNames: [String] = []) {
        self.name = name
        self.argumentNames = argumentNames
    }

    package func encode(_ arguments: repeat each Argument) -> [BusValue] {
        BusArguments.encode(repeat each arguments)
    }

    package var introspection: BusMember {
        BusMember(.signal, name: name, arguments: BusArguments<repeat each Argument>.introspection(argumentNames, direction: nil))
    }
}

/// A list of argument types, as a method's arguments and a signal's both are: their signature,
/// their values, their lines in the introspection XML.
struct BusArguments<each Argument: BusType> {
    /// Each argument's type signature, in order.
    static var types: [String] {
        var types: [String] = []
        for type in repeat (each Argument).self { types.append(type.busSignature) }
        return types
    }

    static var signature: String { types.joined() }

    static func encode(_ arguments: repeat each Argument) -> [BusValue] {
        var values: [BusValue] = []
        for argument in repeat each arguments { values.append(argument.busValue) }
        return values
    }

    static func introspection(_ names: [String], direction: String?) -> [BusMember.Argument] {
        zip(types, names).map { BusMember.Argument(name: $1, type: $0, direction: direction) }
    }
}

/// A method or signal as introspection XML lists it.
package struct BusMember: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case method, signal
    }

    package struct Argument: Sendable, Hashable {
        package var name: String
        package var type: String
        /// "in" or "out" for a method's arguments, nil for a signal's.
        package var direction: String?
    }

    package var kind: Kind
    package var name: String
    package var arguments: [Argument]

    package init(_ kind: Kind, name: String, arguments: [Argument]) {
        self.kind = kind
        self.name = name
        self.arguments = arguments
    }

    package var description: String {
        "\(kind) " + name + "(" + arguments.map { "\($0.direction.map { $0 + " " } ?? "")\($0.type) \($0.name)" }.joined(separator: ", ") + ")"
    }
}
