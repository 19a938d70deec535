import CSDBusShim
import CSystemd
import Glibc

/// An interface we publish on an object: its methods, each with what carries it out; its
/// properties, each with how it is read (and written); its signals. Built once, then registered
/// on the bus thread, where sd-bus calls back into it — one generic callback for every method
/// and property of every interface, dispatched by member name.
package final class BusInterface: @unchecked Sendable {
    /// How a property announces its changes (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
    package enum Announcement: Sendable {
        /// Never changes.
        case constant
        /// PropertiesChanged carries the new value.
        case newValue
        /// PropertiesChanged names it, without the value (large ones: a track list).
        case invalidation
        /// Changes are not announced (Position: clients interpolate, and hear Seeked).
        case none
    }

    package struct Property: Sendable {
        package let name: String
        package let signature: String
        package let announcement: Announcement
        let read: @Sendable () -> BusValue
        let write: (@Sendable (BusValue) throws -> Void)?
    }

    private struct Method {
        let member: BusMember
        let argumentSignature: String
        let answerSignature: String
        let carryOut: @Sendable ([BusValue]) -> BusOutcome
    }

    package let name: String
    /// The D-Bus error for what a method or a property write threw.
    private let refusal: @Sendable (any Error) -> BusCallError
    private var methods: [String: Method] = [:]
    private var methodOrder: [String] = []
    package private(set) var properties: [Property] = []
    private var signals: [BusMember] = []
    /// Where replies go; set when registered.
    private var connection: BusConnection?
    /// The vtable and its strings, kept as long as the interface (sd-bus holds pointers into them).
    private let vtables = BusVTableBuilder()

    /// An interface named `name`; what its methods throw is answered as `refusal` names it.
    package init(_ name: String, refusal: @escaping @Sendable (any Error) -> BusCallError = BusCallError.failed) {
        self.name = name
        self.refusal = refusal
    }

    /// Adds a method carried out at once, on the bus thread: `carryOut` gets its arguments, typed,
    /// and must not wait.
    package func method<each Argument, Answer>(_ method: BusMethod<repeat each Argument, Answer>,
                                               _ carryOut: @escaping @Sendable (repeat each Argument) throws -> Answer) {
        add(method) { [refusal] values in
            guard let arguments = method.decode(values) else { return .failed(Self.unreadable) }
            return Self.reply(Result { try carryOut(repeat each arguments) }, refusal)
        }
    }

    /// Adds a method whose work waits: it runs in a task, off the bus thread, and the reply goes
    /// out when it is done.
    package func method<each Argument, Answer>(_ method: BusMethod<repeat each Argument, Answer>,
                                               _ carryOut: @escaping @Sendable (repeat each Argument) async throws -> Answer) {
        add(method) { [refusal] values in
            .later {
                guard let arguments = method.decode(values) else { return .failed(Self.unreadable) }
                return Self.reply(await Result { try await carryOut(repeat each arguments) }, refusal)
            }
        }
    }

    /// sd-bus checked the arguments' signature against the vtable, so this is only ever a bug.
    private static let unreadable = BusCallError.invalidArguments("arguments that cannot be read")

    private func add<each Argument, Answer>(_ method: BusMethod<repeat each Argument, Answer>,
                                            _ carryOut: @escaping @Sendable ([BusValue]) -> BusOutcome) {
        methods[method.name] = Method(member: method.introspection, argumentSignature: method.argumentSignature,
                                      answerSignature: method.answerSignature, carryOut: carryOut)
        methodOrder.append(method.name)
    }

    /// A method's answer as its reply (its values: none for `BusNothing`), or what it threw as an error.
    private static func reply<Answer: BusAnswer>(_ answer: Result<Answer, any Error>,
                                                 _ refusal: (any Error) -> BusCallError) -> BusOutcome {
        switch answer {
        case .success(let answer): .reply(answer.busValues)
        case .failure(let error): .failed(refusal(error))
        }
    }

    /// Adds a property of type `T`, read with `read` (on the bus thread, at once), writable if
    /// `write` is given (it throws to refuse a value).
    package func property<T: BusType>(_ name: String, _ announcement: Announcement, read: @escaping @Sendable () -> T,
                                      write: (@Sendable (T) throws -> Void)? = nil) {
        let untypedWrite = write.map { write in
            { @Sendable (value: BusValue) throws in
                guard let typed = T(busValue: value) else { throw BusCallError.invalidArguments("\(name) is of type \(T.busSignature)") }
                try write(typed)
            }
        }
        properties.append(Property(name: name, signature: T.busSignature, announcement: announcement, read: { read().busValue },
                                   write: untypedWrite))
    }

    package func signal<each Argument>(_ signal: BusSignalDescription<repeat each Argument>) {
        signals.append(signal.introspection)
    }

    /// What introspection should show of it: methods and signals (properties: `properties`).
    package var members: [BusMember] {
        methodOrder.compactMap { methods[$0]?.member } + signals
    }

    /// Adds the interface to `path` on `bus` (on the bus thread). Returns a negative errno on failure.
    package func register(on bus: OpaquePointer, path: String, connection: BusConnection) -> Int32 {
        self.connection = connection
        var entries: [sd_bus_vtable] = methodOrder.compactMap { name in
            methods[name].map { method in
                vtables.method(name, method.argumentSignature, result: method.answerSignature,
                               names: method.member.arguments.map(\.name), handler: busInterfaceMethod)
            }
        }
        for signal in signals {
            entries.append(cp_vtable_signal(vtables.text(signal.name), vtables.text(signal.arguments.map(\.type).joined()),
                                            vtables.argumentNames(signal.arguments.map(\.name)), 0))
        }
        for property in properties {
            let flags: UInt64 = switch property.announcement {
            case .constant: UInt64(SD_BUS_VTABLE_PROPERTY_CONST)
            case .newValue: UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
            case .invalidation: UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION)
            case .none: 0
            }
            entries.append(property.write == nil
                ? cp_vtable_property(vtables.text(property.name), vtables.text(property.signature), busInterfaceGet, flags)
                : cp_vtable_writable_property(vtables.text(property.name), vtables.text(property.signature),
                                              busInterfaceGet, busInterfaceSet, flags))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        return sd_bus_add_object_vtable(bus, nil, path, name, vtables.table(entries), me)
    }

    fileprivate func call(_ member: String, _ arguments: [BusValue]) -> BusOutcome {
        guard let method = methods[member] else {
            return .failed(BusCallError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member.prefix(80))"))
        }
        return method.carryOut(arguments)
    }

    fileprivate func read(_ property: String) -> BusValue? {
        properties.first { $0.name == property }?.read()
    }

    /// Writes a property; nil if it was written, else the error.
    fileprivate func write(_ property: String, _ value: BusValue) -> BusCallError? {
        guard let write = properties.first(where: { $0.name == property })?.write else {
            return .invalidArguments("\(property) cannot be set")
        }
        do {
            try write(value)
            return nil
        } catch {
            return refusal(error)
        }
    }

    fileprivate func reply(to message: OpaquePointer, with outcome: BusOutcome) {
        connection?.reply(to: message, with: outcome)
    }
}

private func busInterface(_ userdata: UnsafeMutableRawPointer?) -> BusInterface {
    Unmanaged<BusInterface>.fromOpaque(userdata!).takeUnretainedValue()
}

private func busInterfaceMethod(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                                _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let member = sd_bus_message_get_member(message) else { return -EINVAL }
    guard let arguments = BusValue.readAll(from: message) else {
        return sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "arguments that cannot be read")
    }
    let interface = busInterface(userdata)
    interface.reply(to: message, with: interface.call(String(cString: member), arguments))
    return 1
}

private func busInterfaceGet(_ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interfaceName: UnsafePointer<CChar>?,
                             _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                             _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let reply, let property, let value = busInterface(userdata).read(String(cString: property)) else { return -EINVAL }
    return value.append(to: reply)
}

private func busInterfaceSet(_ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interfaceName: UnsafePointer<CChar>?,
                             _ property: UnsafePointer<CChar>?, _ value: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                             _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let value, let property, let newValue = BusValue.read(from: value) else { return -EINVAL }
    guard let refusal = busInterface(userdata).write(String(cString: property), newValue) else { return 0 }
    return sd_bus_error_set(error, refusal.name, refusal.message)
}

extension Result where Failure == any Error {
    /// What `body` returned, or what it threw: `init(catching:)` for work that waits.
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
