import CSystemd
import Foundation

/// A plain D-Bus client on its own connection: what the benchmarks and the flood tests use to
/// call a media player the way a desktop would, and measure it.
public final class BusClient: Sendable {
    private let connection: BusConnection

    /// Connects to the bus at `address` (nil: the session bus).
    public init(address: String? = nil) throws {
        connection = try BusConnection(address: address)
    }

    /// Makes `count` identical method calls, each waiting for its reply, and returns every
    /// round trip in nanoseconds. The calls run back to back on the client's bus thread, so
    /// nothing but the bus and the peer is timed. Error replies count as round trips too.
    public func roundTrips(count: Int, destination: String, path: String, interface: String, member: String,
                           arguments: [String] = []) async throws -> [UInt64] {
        let outcome: Result<[UInt64], BusError>? = await connection.call { bus -> Result<[UInt64], BusError> in
            var times: [UInt64] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                var call: OpaquePointer?
                guard sd_bus_message_new_method_call(bus, &call, destination, path, interface, member) >= 0,
                      let call else { return .failure(.connectionFailed("cannot build a method call")) }
                for argument in arguments { BusValue.string(argument).append(to: call) }
                var error = sd_bus_error()
                var reply: OpaquePointer?
                let start = Self.now()
                let status = sd_bus_call(bus, call, 5_000_000, &error, &reply)
                times.append(Self.now() - start)
                sd_bus_message_unref(call)
                if let reply { sd_bus_message_unref(reply) }
                sd_bus_error_free(&error)
                if status == -ETIMEDOUT || status == -ECONNRESET || status == -ENOTCONN {
                    return .failure(.connectionFailed(String(cString: strerror(-status))))
                }
            }
            return .success(times)
        }
        guard let outcome else { throw BusError.connectionFailed("the connection is closed") }
        return try outcome.get()
    }

    /// Calls a method and returns its reply's values; a D-Bus error reply throws `BusCallError`.
    public func call(destination: String, path: String, interface: String, member: String,
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

    public func close() async {
        await connection.close()
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
