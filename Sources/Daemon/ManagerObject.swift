import Cache
import CSDBusShim
import CSystemd
import DBus
import Foundation
import Manager1

/// The `/org/cloudplayerd/Manager1` object: `cloudplayerctl`'s interface to the library, the
/// queue, playlists and the cache. sd-bus checks each call's signature against the vtable
/// (a wrong one gets InvalidArgs before we see it); the arguments are read generically and
/// handed to `handle`.
package final class ManagerObject: @unchecked Sendable {
    static let path = Manager1Interface.path
    static let interface = Manager1Interface.name

    let connection: BusConnection
    let handle: @Sendable (ManagerCall) -> BusOutcome
    private let vtables = BusVTableBuilder()

    init(connection: BusConnection, handle: @escaping @Sendable (ManagerCall) -> BusOutcome) {
        self.connection = connection
        self.handle = handle
    }

    /// Adds the interface to `bus` (on the bus thread). Returns a negative errno on failure.
    func register(on bus: OpaquePointer) -> Int32 {
        var entries = Manager1Interface.methods.map {
            vtables.method($0.name, $0.signature, result: $0.result, names: $0.names, handler: managerMethod)
        }
        entries.append(cp_vtable_signal(vtables.text("ScanFinished"), vtables.text("aa{sv}"), vtables.argumentNames(["Reports"]), 0))
        let me = Unmanaged.passUnretained(self).toOpaque()
        return sd_bus_add_object_vtable(bus, nil, Self.path, Self.interface, vtables.table(entries), me)
    }

    /// Emits a signal of this object (on the bus thread).
    func emit(on bus: OpaquePointer, signal member: String, _ arguments: [BusValue]) {
        BusSignal.emit(on: bus, path: Self.path, interface: Self.interface, member: member, arguments)
    }
}

/// A Manager1 method call: its member and its arguments, as read.
package struct ManagerCall: Sendable {
    var member: String
    var arguments: [BusData]

    func string(_ index: Int) -> String { arguments.indices.contains(index) ? arguments[index].text ?? "" : "" }
    func strings(_ index: Int) -> [String] { arguments.indices.contains(index) ? arguments[index].elements.compactMap(\.text) : [] }
    func number(_ index: Int) -> Int { arguments.indices.contains(index) ? Int(arguments[index].integer ?? 0) : 0 }
    func flag(_ index: Int) -> Bool { arguments.indices.contains(index) ? arguments[index].flag ?? false : false }
}

private func managerMethod(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                           _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let member = sd_bus_message_get_member(message) else { return -EINVAL }
    let object = Unmanaged<ManagerObject>.fromOpaque(userdata!).takeUnretainedValue()
    guard let arguments = BusData.readAll(from: message) else {
        return sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "arguments that cannot be read")
    }
    object.connection.reply(to: message, with: object.handle(ManagerCall(member: String(cString: member), arguments: arguments)))
    return 1
}
