import CPulse

/// Following sinks. With none named, the stream is left to the server's routing, which follows
/// the default sink (headphones plugged in, a Bluetooth headset). A named sink that is not there,
/// or goes away (the server moves the stream to its default), is left for the default with one
/// warning, and the stream goes back to it as soon as it reappears.
extension PulseOutput {
    /// Asks the server to tell when sinks come (a named sink back); no cost while none does.
    /// With the lock held.
    func subscribeToSinks() {
        pa_context_set_subscribe_callback(context, pulseContextEvent, Unmanaged.passUnretained(self).toOpaque())
        if let operation = pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SINK, nil, nil) { pa_operation_unref(operation) }
    }

    // MARK: Called by the mainloop's callbacks, with the lock held

    /// The server moved the stream: away from the named sink (it went), or after a new default.
    fileprivate func streamMoved() {
        guard let stream, let device = pa_stream_get_device_name(stream).map({ String(cString: $0) }) else { return }
        guard let sink else {
            logger.info("following the default sink to \(device)")
            return
        }
        if device == sink {
            displaced = false
        } else if !displaced {
            displaced = true
            logger.warning("sink \(sink) is gone; playing on \(device) until it is back")
        }
    }

    /// A sink appeared: if it may be the named one the stream was moved away from, move back.
    fileprivate func sinkAppeared() {
        guard displaced, let sink, let stream = readyStream else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let operation = pa_context_move_sink_input_by_name(context, pa_stream_get_index(stream), sink, pulseMovedBack, me) {
            pa_operation_unref(operation)
        }
    }

    /// The answer to `sinkAppeared`'s move: false while the new sink was another one.
    fileprivate func movedBack(_ success: Bool) {
        guard success, let sink else { return }
        displaced = false
        logger.notice("sink \(sink) is back; playing on it again")
    }
}

/// Set on each stream by `connectStream`.
func pulseStreamMoved(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().streamMoved()
}

private func pulseContextEvent(_ context: OpaquePointer?, _ event: pa_subscription_event_type_t, _ index: UInt32,
                               _ userdata: UnsafeMutableRawPointer?) {
    let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    guard facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue, kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue else { return }
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().sinkAppeared()
}

private func pulseMovedBack(_ context: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().movedBack(success != 0)
}
