import CSystemd
import Foundation

/// A plain D-Bus client on its own connection: how `cloudplayerctl` calls the daemon.
package final class BusClient: Sendable {
    package let connection: BusConnection

    /// Connects to the bus at `address` (nil: the session bus).
    package init(address: String? = nil) throws {
        connection = try BusConnection(address: address)
    }

    /// Calls a method and returns its reply's values; a D-Bus error reply throws `BusCallError`.
    package func call(destination: String, path: String, interface: String, member: String,
                     arguments: [BusArgument] = [], timeoutSeconds: Double = 120) async throws -> [BusData] {
        let outcome: Result<[BusData], any Error>? = await connection.call { bus -> Result<[BusData], any Error> in
            var call: OpaquePointer?
            guard sd_bus_message_new_method_call(bus, &call, destination, path, interface, member) >= 0,
                  let call else { return .failure(BusError.connectionFailed("cannot build a method call")) }
            defer { sd_bus_message_unref(call) }
            for argument in arguments where argument.value.append(to: call) < 0 {
                return .failure(BusError.connectionFailed("cannot build a method call"))
            }
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            var reply: OpaquePointer?
            let status = sd_bus_call(bus, call, UInt64(timeoutSeconds * 1_000_000), &error, &reply)
            guard status >= 0, let reply else {
                let name = error.name.map { String(cString: $0) }
                    ?? (status == -ETIMEDOUT ? "org.freedesktop.DBus.Error.Timeout" : "org.freedesktop.DBus.Error.Failed")
                let message = error.message.map { String(cString: $0) } ?? String(cString: strerror(-status))
                return .failure(BusCallError(name: name, message: message))
            }
            defer { sd_bus_message_unref(reply) }
            guard let values = BusData.readAll(from: reply) else {
                return .failure(BusCallError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "a reply that cannot be read"))
            }
            return .success(values)
        }
        guard let outcome else { throw BusError.connectionFailed("the connection is closed") }
        return try outcome.get()
    }

    package func close() async {
        await connection.close()
    }
}
