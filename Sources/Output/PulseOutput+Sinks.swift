import CPulse

/// Following sinks. With none named, the stream is left to the server's routing, which follows
/// the default sink (headphones plugged in, a Bluetooth headset). A named sink that is not there,
/// or goes away (the server moves the stream to its default), is left for the default with one
/// warning, and the stream goes back to it as soon as it reappears; one moved off a named sink
/// that is still there (the server following a new default) goes straight back.
extension PulseOutput {
    /// Asks the server to tell when sinks come (a named sink back); no cost while none does.
    /// With the lock held.
    func subscribeToSinks() {
        pa_context_set_subscribe_callback(context, pulseContextEvent, Unmanaged.passUnretained(self).toOpaque())
        if let operation = pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SINK, nil, nil) { pa_operation_unref(operation) }
    }

    // MARK: Called by the mainloop's callbacks, with the lock held

    /// The server moved the stream: to a new default, or away from the named sink. A stream off
    /// its named sink may have been moved because the sink went, or because the default changed:
    /// PipeWire's session manager makes a stream follow the default once the sink it was placed
    /// on is the default (PulseAudio's rule for a stream moved there), so a named sink that was
    /// the default loses its stream to the next one. Which of the two is asked of the server.
    fileprivate func streamMoved() {
        guard let device = currentDevice else { return }
        guard let sink else {
            logger.info("following the default sink to \(device)")
            return
        }
        if device == sink {
            displaced = false
        } else if !displaced {
            let me = Unmanaged.passUnretained(self).toOpaque()
            if let operation = pa_context_get_sink_info_by_name(context, sink, pulseNamedSinkLookedUp, me) {
                pa_operation_unref(operation)
            }
        }
    }

    /// The named sink is there, yet the stream was moved off it (a new default): back it goes.
    /// Moved by us onto a sink that is not the default, it stays there when the default changes.
    /// A server that moves it off again within seconds has a policy of its own: it is not
    /// fought, the stream plays where it was put, as for a sink that went.
    fileprivate func namedSinkStillThere() {
        guard let sink, let stream = readyStream, let device = currentDevice, device != sink else { return }
        if let movedBackAt, movedBackAt.duration(to: .now) < Self.moveBackQuiet {
            return namedSinkLeft("the server keeps moving the stream off sink \(sink)")
        }
        movedBackAt = .now
        logger.info("the server moved the stream to \(device) (a new default); back to sink \(sink)")
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let operation = pa_context_move_sink_input_by_name(context, pa_stream_get_index(stream), sink, pulseKeptOnSink, me) {
            pa_operation_unref(operation)
        }
    }

    /// The stream stays off its named sink, for `why`: it plays on where the server put it
    /// until the sink appears again (`sinkAppeared`). Said once.
    fileprivate func namedSinkLeft(_ why: String) {
        guard let sink, !displaced, let device = currentDevice, device != sink else { return }
        displaced = true
        logger.warning("\(why); playing on \(device) until it is back")
    }

    /// The named sink is gone (or the move back failed: it went meanwhile).
    fileprivate func namedSinkGone() {
        guard let sink else { return }
        namedSinkLeft("sink \(sink) is gone")
    }

    /// How soon after a move back another move off the named sink is taken as the server's will.
    static let moveBackQuiet = Duration.seconds(5)

    /// The sink the stream plays on now. With the lock held.
    private var currentDevice: String? {
        guard let stream, let name = pa_stream_get_device_name(stream) else { return nil }
        return String(cString: name)
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

/// The answer to `streamMoved`'s question: the sink's description, then the list's end (`eol`
/// 1); only `eol` -1 (an error: no such sink) if it is not there.
private func pulseNamedSinkLookedUp(_ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, _ eol: Int32,
                                    _ userdata: UnsafeMutableRawPointer?) {
    let output = Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue()
    if let info {
        // There but unplugged (an HDMI monitor switched off, headphones out of the jack): as gone.
        if info.pointee.active_port.map({ $0.pointee.available == PA_PORT_AVAILABLE_NO.rawValue }) == true {
            output.namedSinkLeft("sink \(String(cString: info.pointee.name)) is unplugged")
        } else {
            output.namedSinkStillThere()
        }
    } else if eol < 0 {
        output.namedSinkGone()
    }
}

private func pulseKeptOnSink(_ context: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    guard success == 0 else { return }
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().namedSinkGone()
}

private func pulseMovedBack(_ context: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().movedBack(success != 0)
}
