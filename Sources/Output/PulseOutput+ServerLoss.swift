import CPulse

/// A sound server that went away (killed, restarted, PipeWire's pulse server replaced): the
/// failed context cannot recover, so `reconnect` makes a new one on the same mainloop. The player
/// decides when to call it and what to play again.
extension PulseOutput {
    /// A new context in place of the failed one, on the same mainloop; back once the server
    /// answers and has a default sink (a restarted server may have none yet). One attempt: the
    /// player decides when to try again.
    package func reconnect() async throws {
        try locked {
            guard !released else { throw closedError() }
            dropStream()
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            guard let fresh = Self.makeContext(on: mainloop, applicationName: applicationName) else {
                throw OutputError.serverLost("cannot create a PulseAudio context")
            }
            pa_context_unref(context)
            context = fresh
            sinkThere = nil
            try connectContext()
        }
        try await mainloop.wait { try contextIsReady() }
        // A sink to play on is the default one: a named sink a restarted server lost is waited
        // for on the default, as when it goes away under a playing stream.
        let asked: OpaquePointer? = locked {
            pa_context_get_server_info(context, pulseServerInfo, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let asked else { throw OutputError.serverLost(locked { serverReason() }) }
        defer { locked { pa_operation_unref(asked) } }
        try await mainloop.wait {
            try checkHealthy()
            return sinkThere != nil
        }
        guard locked({ sinkThere }) == true else {
            throw OutputError.serverLost("the server has no sink yet")
        }
        locked {
            // The named sink is asked for again: a new server may have it.
            displaced = false
            subscribeToSinks()
        }
    }
}

/// The server's default sink, if it names one, is looked up. `auto_null` is what both servers put
/// up while they have no sink (PulseAudio's module-always-sink, pipewire-pulse's "Dummy Output"),
/// right after a restart among other times: playing there is playing into nowhere.
private func pulseServerInfo(_ context: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?, _ userdata: UnsafeMutableRawPointer?) {
    let output = Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue()
    guard let name = info?.pointee.default_sink_name, name.pointee != 0, String(cString: name) != "auto_null",
          let lookup = pa_context_get_sink_info_by_name(context, name, pulseDefaultSinkFound, userdata) else {
        output.sinkThere = false
        output.mainloop.wake()
        return
    }
    pa_operation_unref(lookup)
}

/// Called once if the default sink exists, then once more at the end of the list (`eol` 1, or -1
/// for none).
private func pulseDefaultSinkFound(_ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, _ eol: Int32,
                                   _ userdata: UnsafeMutableRawPointer?) {
    let output = Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue()
    if info != nil {
        output.sinkThere = true
    } else if output.sinkThere == nil {
        output.sinkThere = false
    }
    output.mainloop.wake()
}
