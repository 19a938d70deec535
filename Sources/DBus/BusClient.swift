import CSystemd
import Glibc

/// A plain D-Bus client on its own connection: how `cloudplayerctl` calls the daemon.
package final class BusClient: Sendable {
    package let connection: BusConnection

    /// Connects to the bus at `address` (nil: the session bus).
    package init(address: String? = nil) throws {
        connection = try BusConnection(address: address)
    }

    /// Calls a method and returns its reply's values; a D-Bus error reply throws `BusCallError`.
    package func call(destination: String, path: String, interface: String, member: String,
                     arguments: [BusValue] = [], timeoutSeconds: Double = 120) async throws -> [BusValue] {
        let outcome: Result<[BusValue], any Error>? = await connection.call { bus -> Result<[BusValue], any Error> in
            var call: OpaquePointer?
            guard sd_bus_message_new_method_call(bus, &call, destination, path, interface, member) >= 0,
                  let call else { return .failure(BusError.connectionFailed("cannot build a method call")) }
            defer { sd_bus_message_unref(call) }
            guard arguments.appendAll(to: call) >= 0 else {
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
            guard let values = BusValue.readAll(from: reply) else {
                return .failure(BusCallError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "a reply that cannot be read"))
            }
            return .success(values)
        }
        guard let outcome else { throw BusError.connectionFailed("the connection is closed") }
        return try outcome.get()
    }

    /// Calls a described method and returns its answer, typed, and the reply's values as they
    /// came (for `--json`).
    package func call<each Argument, Answer>(_ method: BusMethod<repeat each Argument, Answer>, _ arguments: repeat each Argument,
                                             destination: String, path: String, interface: String) async throws -> (answer: Answer, raw: [BusValue]) {
        let values = try await call(destination: destination, path: path, interface: interface, member: method.name,
                                    arguments: method.encode(repeat each arguments))
        guard let answer = Answer(busValues: values) else {
            throw BusCallError(name: "org.freedesktop.DBus.Error.InvalidSignature",
                               message: "\(method.name) answered something other than '\(Answer.busSignature)'")
        }
        return (answer, values)
    }

    package func close() async {
        await connection.close()
    }
}
