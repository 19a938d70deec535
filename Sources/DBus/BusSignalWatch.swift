import Base
import CSystemd
import Glibc

/// The signals of one kind that reach a client connection, as they come: the match is added (and
/// confirmed by the bus) before `watch` returns, so a call made after it cannot cause a signal
/// that is missed — as a Secret Service prompt's `Completed` must not be. `cancel()` removes it.
package final class BusSignalWatch: Sendable {
    /// Each signal's values, in order; it ends when the watch is cancelled.
    package let signals: AsyncStream<[BusValue]>
    private let sink: SignalSink
    private let connection: BusConnection
    private let slot = Locked<UncheckedSlot?>(nil)

    fileprivate init(connection: BusConnection) {
        self.connection = connection
        let (signals, continuation) = AsyncStream<[BusValue]>.makeStream()
        self.signals = signals
        sink = SignalSink(continuation: continuation)
    }

    /// Removes the match (on the bus thread) and ends `signals`.
    package func cancel() {
        sink.continuation.finish()
        guard let taken = slot.withLock({ slot -> UncheckedSlot? in defer { slot = nil }; return slot }) else { return }
        // On a closed connection this never runs: the bus freed its matches, and the sink's
        // reference stays (one small box).
        connection.perform { _ in
            sd_bus_slot_unref(taken.pointer)
            Unmanaged.passUnretained(taken.sink).release()
        }
    }

    fileprivate func install(_ pointer: OpaquePointer) {
        slot.withLock { $0 = UncheckedSlot(pointer: pointer, sink: sink) }
    }

    fileprivate var userdata: UnsafeMutableRawPointer { Unmanaged.passRetained(sink).toOpaque() }
}

extension BusClient {
    /// Starts receiving the signals `member` of `interface` sent from `path` (any sender: a
    /// well-known name would not match the unique name a signal carries here).
    package func watch(path: String, interface: String, member: String) async throws -> BusSignalWatch {
        let watch = BusSignalWatch(connection: connection)
        let status = await connection.call { bus -> Int32 in
            var slot: OpaquePointer?
            let userdata = watch.userdata  // the sink's reference that the match holds
            let status = sd_bus_match_signal(bus, &slot, nil, path, interface, member, { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                let sink = Unmanaged<SignalSink>.fromOpaque(userdata).takeUnretainedValue()
                sink.continuation.yield(BusValue.readAll(from: message) ?? [])
                return 0
            }, userdata)
            if status >= 0, let slot {
                watch.install(slot)
            } else {
                Unmanaged<SignalSink>.fromOpaque(userdata).release()
            }
            return status
        } ?? -ENOTCONN
        guard status >= 0 else {
            throw BusError.connectionFailed("cannot watch \(interface).\(member): \(String(cString: strerror(-status)))")
        }
        return watch
    }
}

/// Where the match's callback puts what it receives; kept alive by the match (its userdata).
private final class SignalSink: Sendable {
    let continuation: AsyncStream<[BusValue]>.Continuation

    init(continuation: AsyncStream<[BusValue]>.Continuation) {
        self.continuation = continuation
    }
}

/// A match's slot, freed on the bus thread.
private struct UncheckedSlot: @unchecked Sendable {
    let pointer: OpaquePointer
    let sink: SignalSink
}
