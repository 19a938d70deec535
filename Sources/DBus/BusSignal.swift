import CSystemd

/// Sends a signal of one of our objects (on the bus thread): MPRIS's and Manager1's alike.
package enum BusSignal {
    package static func emit(on bus: OpaquePointer, path: String, interface: String, member: String, _ arguments: [BusValue]) {
        var signal: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &signal, path, interface, member) >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        for argument in arguments where argument.append(to: signal) < 0 { return }
        _ = sd_bus_send(bus, signal, nil)
    }
}
