import CSystemd
import DBus
import Foundation

extension BusClient {
    /// Makes `count` identical method calls, each waiting for its reply, and returns every
    /// round trip in nanoseconds. The calls run back to back on the client's bus thread, so
    /// nothing but the bus and the peer is timed. Error replies count as round trips too.
    func roundTrips(count: Int, destination: String, path: String, interface: String, member: String,
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

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
