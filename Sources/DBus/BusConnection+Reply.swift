import CSystemd
import Glibc

extension BusConnection {
    /// Answers a method call (on the bus thread). Work that must wait runs in a task, and its
    /// answer comes back to this thread; the call message is kept alive until then.
    func reply(to call: OpaquePointer, with outcome: BusOutcome) {
        switch outcome {
        case .later(let work):
            let pending = PendingCall(message: sd_bus_message_ref(call))
            Task {
                let outcome = await work()
                perform { _ in
                    self.reply(to: pending.message, with: outcome)
                    sd_bus_message_unref(pending.message)
                }
            }
        case .failed(let refusal):
            var error = sd_bus_error()
            _ = sd_bus_error_set(&error, refusal.name, refusal.message)
            _ = sd_bus_reply_method_error(call, &error)
            sd_bus_error_free(&error)
        case .reply(let values):
            var reply: OpaquePointer?
            var status = sd_bus_message_new_method_return(call, &reply)
            if status >= 0, let reply {
                defer { sd_bus_message_unref(reply) }
                status = values.appendAll(to: reply)
                if status >= 0 { status = sd_bus_send(nil, reply, nil) }
            }
            // An answer that cannot be built or sent (too large, say) is an error, never silence:
            // the caller would wait for its timeout.
            if status < 0 {
                self.reply(to: call, with: .failed(BusCallError(name: "org.freedesktop.DBus.Error.Failed",
                                                                message: "the answer could not be sent: \(String(cString: strerror(-status)))")))
            }
        }
    }
}

/// A method call awaiting its reply, handed from the bus thread to a task and back.
private struct PendingCall: @unchecked Sendable {
    let message: OpaquePointer
}
