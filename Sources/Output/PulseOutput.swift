import CPulse
import Glibc
import Logging
import Model

/// PulseAudio through the asynchronous API on a `pa_threaded_mainloop`.
///
/// Pause is cork, volume is the sink input's volume, and the played position is the stream's
/// time (frames the server has played, interpolated), so it stops while corked. Waiting for room
/// or for a drain suspends the task — a continuation that the mainloop's callbacks resume — so no
/// thread of the cooperative pool ever blocks here.
///
/// Sinks: with none named, the stream is left to the server's routing, which follows the
/// default sink (headphones plugged in, a Bluetooth headset). A named sink that is not there, or
/// goes away (the server moves the stream to its default), is left for the default with one
/// warning, and the stream goes back to it as soon as it reappears.
///
/// Every C call and every mutable field below is guarded by the threaded mainloop's lock; that
/// lock is what makes this class safe to share (`@unchecked Sendable`).
package final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// Server-side buffer of the stream (PulseAudio's own default): it rides out a process that
    /// is starved of CPU for a while. Its length costs no responsiveness: pause is a cork, volume
    /// acts on the sink input, and a seek drops the stream.
    /// libpulse as loaded at run time, for `cloudplayerd --version`.
    package static var libraryVersion: String {
        "libpulse " + String(cString: pa_get_library_version())
    }

    private static let bufferSeconds = 2.0
    /// How many server requests fill the buffer once (`minreq` = its quarter).
    private static let requestsPerBuffer: UInt32 = 4

    private let mainloop: OpaquePointer
    /// Replaced by `reconnect` after the server went away.
    private var context: OpaquePointer
    private let server: String?
    private let applicationName: String
    private let sink: String?
    private var stream: OpaquePointer?
    private var format: PCMFormat?
    private var paused = false
    private var volume = 1.0
    private var released = false
    /// The one task waiting for the server (a writer, a drain or a connect).
    private var waiter: CheckedContinuation<Bool, any Error>?
    /// The answer to `reconnect`'s question "is there a sink to play on?", once it came.
    fileprivate var sinkThere: Bool?
    /// The stream plays elsewhere than on the named sink, which is not there.
    private var displaced = false
    private let logger = Logger(label: "cloudplayerd.output")

    /// Connects to the server (`server` nil: the default, from `PULSE_SERVER` or the user's
    /// runtime directory). Never spawns a server.
    package static func connect(server: String? = nil, sink: String? = nil,
                               applicationName: String = "cloudplayerd") async throws -> PulseOutput {
        let output = try PulseOutput(server: server, sink: sink, applicationName: applicationName)
        do {
            try output.beginConnecting()
            try await output.waitForServer { try output.contextIsReady() }
            output.locked { output.subscribeToSinks() }
        } catch {
            output.release()
            throw error
        }
        return output
    }

    private init(server: String?, sink: String?, applicationName: String) throws {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw OutputError.serverUnreachable("cannot create a PulseAudio main loop")
        }
        guard let context = Self.makeContext(on: mainloop, applicationName: applicationName) else {
            pa_threaded_mainloop_free(mainloop)
            throw OutputError.serverUnreachable("cannot create a PulseAudio context")
        }
        self.mainloop = mainloop
        self.context = context
        self.server = server
        self.applicationName = applicationName
        self.sink = sink
    }

    private static func makeContext(on mainloop: OpaquePointer, applicationName: String) -> OpaquePointer? {
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "music")
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ICON_NAME, "audio-x-generic")
        defer { pa_proplist_free(properties) }
        return pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), applicationName, properties)
    }

    /// Starts the connection and the mainloop thread; `connect` waits for the outcome.
    private func beginConnecting() throws {
        try connectContext()
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw OutputError.serverUnreachable("cannot start the PulseAudio main loop")
        }
    }

    /// Asks the context to connect; with the lock held once the mainloop runs.
    private func connectContext() throws {
        pa_context_set_state_callback(context, pulseContextChanged, Unmanaged.passUnretained(self).toOpaque())
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw OutputError.serverUnreachable(serverReason())
        }
    }

    deinit {
        release()
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    // MARK: AudioOutput

    package func start(format newFormat: PCMFormat) async throws {
        do {
            try await connectStream(format: newFormat, on: locked { displaced ? nil : sink })
        } catch OutputError.deviceFailed where locked({ sink != nil && !displaced && pa_context_errno(context) == PA_ERR_NOENTITY.rawValue }) {
            try await connectStream(format: newFormat, on: nil)
        }
        locked {
            // PulseAudio refuses a stream for a sink it does not have (it went to the default
            // above); PipeWire takes it and plays it on the default itself.
            guard let sink, !displaced, let stream, let device = pa_stream_get_device_name(stream).map({ String(cString: $0) }),
                  device != sink else { return }
            displaced = true
            logger.warning("sink \(sink) is not there; playing on the default sink until it is")
        }
        // Pause and volume may have changed while the stream connected, when the server could
        // not take them: apply what holds now.
        locked {
            applyPause()
            applyVolume()
        }
    }

    /// A new stream of `newFormat` on `device` (nil: the server's choice), once it is ready.
    private func connectStream(format newFormat: PCMFormat, on device: String?) async throws {
        try locked {
            dropStream()
            // 24-bit sources as S24_32LE: a change of depth reopens the stream, as one of rate does.
            var spec = pa_sample_spec(format: newFormat.isWide ? PA_SAMPLE_S24_32LE : PA_SAMPLE_S16LE,
                                      rate: UInt32(newFormat.sampleRate), channels: UInt8(newFormat.channels))
            var map = Self.channelMap(channels: newFormat.channels)
            guard let created = pa_stream_new(context, "Music", &spec, &map) else { throw serverError() }
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_stream_set_state_callback(created, pulseStreamChanged, me)
            pa_stream_set_write_callback(created, pulseStreamWritable, me)
            pa_stream_set_moved_callback(created, pulseStreamMoved, me)
            let bufferBytes = UInt32(Self.bufferSeconds * Double(newFormat.sampleRate)) * UInt32(newFormat.bytesPerFrame)
            // The server asks for more when a quarter of the buffer is free: writes of 0.5 s, two a
            // second. Left to the server (-1), minreq came out far smaller, and every request wakes
            // the mainloop thread and a writer.
            let requestBytes = bufferBytes / Self.requestsPerBuffer / UInt32(newFormat.bytesPerFrame) * UInt32(newFormat.bytesPerFrame)
            var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: bufferBytes, prebuf: UInt32.max,
                                            minreq: requestBytes, fragsize: UInt32.max)
            var flags = PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
            if paused { flags |= PA_STREAM_START_CORKED.rawValue }
            var initialVolume = channelVolume(channels: newFormat.channels)
            stream = created
            format = newFormat
            guard pa_stream_connect_playback(created, device, &attributes, pa_stream_flags_t(rawValue: flags),
                                             &initialVolume, nil) >= 0 else {
                defer { dropStream() }
                throw serverError()
            }
        }
        try await waitForServer { try streamIsReady() }
    }

    package func write(_ samples: PCMSamples) async throws {
        let total = samples.withUnsafeBytes(\.count)
        var offset = 0
        while offset < total {
            var room = 0
            try await waitForServer {
                room = try writableBytes()
                return room > 0
            }
            try locked {
                guard let stream, let format else { throw closedError() }
                // Whole frames only: the server refuses a write that splits one.
                let count = min(room, total - offset) / format.bytesPerFrame * format.bytesPerFrame
                let status = samples.withUnsafeBytes { bytes in
                    pa_stream_write(stream, bytes.baseAddress! + offset, count, nil, 0, PA_SEEK_RELATIVE)
                }
                guard status >= 0 else { throw serverError() }
                offset += count
            }
        }
    }

    package func drain() async throws {
        let operation: OpaquePointer? = locked {
            guard let stream else { return nil }
            return pa_stream_drain(stream, pulseOperationDone, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let operation else { return }
        defer {
            locked {
                pa_operation_cancel(operation)
                pa_operation_unref(operation)
            }
        }
        try await waitForServer {
            try checkHealthy()
            return pa_operation_get_state(operation) != PA_OPERATION_RUNNING
        }
    }

    package func stop() {
        locked {
            dropStream()
            wake()
        }
    }

    package func setPaused(_ newValue: Bool) {
        locked {
            paused = newValue
            applyPause()
        }
    }

    package func setVolume(_ newValue: Double) {
        locked {
            volume = max(0, newValue)
            applyVolume()
        }
    }

    package func playedFrames() -> Int64 {
        locked {
            guard let stream, let format else { return 0 }
            var microseconds: pa_usec_t = 0
            guard pa_stream_get_time(stream, &microseconds) == 0 else { return 0 }
            return Int64(microseconds) * Int64(format.sampleRate) / 1_000_000
        }
    }

    package func close() {
        release()
    }

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
        try await waitForServer { try contextIsReady() }
        // A sink to play on is the default one: a named sink a restarted server lost is waited
        // for on the default, as when it goes away under a playing stream.
        let asked: OpaquePointer? = locked {
            pa_context_get_server_info(context, pulseServerInfo, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let asked else { throw OutputError.serverLost(locked { serverReason() }) }
        defer { locked { pa_operation_unref(asked) } }
        try await waitForServer {
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

    fileprivate func wake() {
        let pending = waiter
        waiter = nil
        pending?.resume(returning: false)
    }

    // MARK: Private; callers hold the lock unless said otherwise

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Suspends until `satisfied` (evaluated under the lock after every server event) is true.
    /// Called without the lock.
    private func waitForServer(until satisfied: () throws -> Bool) async throws {
        while true {
            let done = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                    locked {
                        do {
                            if Task.isCancelled { throw CancellationError() }
                            if try satisfied() { return continuation.resume(returning: true) }
                            waiter = continuation
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                }
            } onCancel: {
                locked {
                    let pending = waiter
                    waiter = nil
                    pending?.resume(throwing: CancellationError())
                }
            }
            if done { return }
        }
    }

    /// The stream as ready for cork and volume: both fail on a stream still connecting, and
    /// `start` applies them once it is ready.
    private var readyStream: OpaquePointer? {
        guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return nil }
        return stream
    }

    private func applyPause() {
        if let stream = readyStream, let operation = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    private func applyVolume() {
        guard let stream = readyStream, let format else { return }
        var levels = channelVolume(channels: format.channels)
        if let operation = pa_context_set_sink_input_volume(context, pa_stream_get_index(stream), &levels, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// Why there is no stream to write to: the task was cancelled, or the output was stopped or
    /// closed under it.
    private func closedError() -> any Error {
        Task.isCancelled ? CancellationError() : OutputError.deviceFailed("the PulseAudio stream was closed")
    }

    private func contextIsReady() throws -> Bool {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY: return true
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: throw OutputError.serverUnreachable(serverReason())
        default: return false
        }
    }

    private func streamIsReady() throws -> Bool {
        guard let stream else { throw closedError() }
        try checkHealthy()
        return pa_stream_get_state(stream) == PA_STREAM_READY
    }

    /// Bytes the server takes now, in whole frames; 0 when it takes none.
    private func writableBytes() throws -> Int {
        guard let stream, let format else { throw closedError() }
        try checkHealthy()
        guard pa_stream_get_state(stream) == PA_STREAM_READY else { return 0 }
        let size = pa_stream_writable_size(stream)
        guard size != Int.max, size != -1 else { throw serverError() }
        return size / format.bytesPerFrame * format.bytesPerFrame
    }

    private var contextFailed: Bool {
        let state = pa_context_get_state(context)
        return state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
    }

    private func checkHealthy() throws {
        if contextFailed { throw OutputError.serverLost(serverReason()) }
        if let stream {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                throw OutputError.deviceFailed(serverReason())
            }
        }
    }

    /// PCM channels come in WAVE/FLAC order (`PCMFormat`); named explicitly, as PulseAudio's own
    /// default map for 3 to 8 channels is AIFF's, another order.
    static func channelMap(channels: Int) -> pa_channel_map {
        let positions: [pa_channel_position_t] = switch channels {
        case 1: [PA_CHANNEL_POSITION_MONO]
        case 2: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT]
        case 3: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER]
        case 4: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT,
                 PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT]
        case 5: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                 PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT]
        case 6: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                 PA_CHANNEL_POSITION_LFE, PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT]
        case 7: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                 PA_CHANNEL_POSITION_LFE, PA_CHANNEL_POSITION_REAR_CENTER,
                 PA_CHANNEL_POSITION_SIDE_LEFT, PA_CHANNEL_POSITION_SIDE_RIGHT]
        case 8: [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                 PA_CHANNEL_POSITION_LFE, PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT,
                 PA_CHANNEL_POSITION_SIDE_LEFT, PA_CHANNEL_POSITION_SIDE_RIGHT]
        default: []
        }
        var map = pa_channel_map()
        guard !positions.isEmpty else {
            pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_AUX)
            return map
        }
        map.channels = UInt8(positions.count)
        withUnsafeMutableBytes(of: &map.map) { raw in
            let slots = raw.bindMemory(to: pa_channel_position_t.self)
            for (index, position) in positions.enumerated() { slots[index] = position }
        }
        return map
    }

    private func channelVolume(channels: Int) -> pa_cvolume {
        var levels = pa_cvolume()
        pa_cvolume_set(&levels, UInt32(channels), pa_sw_volume_from_linear(volume))
        return levels
    }

    /// Asks the server to tell when sinks come (a named sink back); no cost while none does.
    private func subscribeToSinks() {
        pa_context_set_subscribe_callback(context, pulseContextEvent, Unmanaged.passUnretained(self).toOpaque())
        if let operation = pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SINK, nil, nil) { pa_operation_unref(operation) }
    }

    private func dropStream() {
        guard let current = stream else { return }
        pa_stream_set_state_callback(current, nil, nil)
        pa_stream_set_write_callback(current, nil, nil)
        pa_stream_set_moved_callback(current, nil, nil)
        pa_stream_disconnect(current)
        pa_stream_unref(current)
        stream = nil
        format = nil
    }

    private func serverReason() -> String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }

    /// What a failed call means: the server is gone (or not yet back: a context that is not
    /// ready), or this stream alone failed.
    private func serverError() -> OutputError {
        pa_context_get_state(context) != PA_CONTEXT_READY ? .serverLost(serverReason()) : .deviceFailed(serverReason())
    }

    /// Disconnects and stops the mainloop thread; safe to call twice. The C objects themselves
    /// are freed in `deinit`, so a late call on a closed output finds a lock, not freed memory.
    /// Called without the lock.
    private func release() {
        let first: Bool = locked {
            guard !released else { return false }
            released = true
            dropStream()
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            let pending = waiter
            waiter = nil
            pending?.resume(throwing: CancellationError())
            return true
        }
        guard first else { return }
        pa_threaded_mainloop_stop(mainloop)
    }
}

private func pulseContextChanged(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().wake()
}

private func pulseStreamChanged(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().wake()
}

private func pulseStreamWritable(_ stream: OpaquePointer?, _ bytes: Int, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().wake()
}

private func pulseStreamMoved(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
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

/// The server's default sink, if it names one, is looked up. `auto_null` is what both servers put
/// up while they have no sink (PulseAudio's module-always-sink, pipewire-pulse's "Dummy Output"),
/// right after a restart among other times: playing there is playing into nowhere.
private func pulseServerInfo(_ context: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?, _ userdata: UnsafeMutableRawPointer?) {
    let output = Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue()
    guard let name = info?.pointee.default_sink_name, name.pointee != 0, String(cString: name) != "auto_null",
          let lookup = pa_context_get_sink_info_by_name(context, name, pulseDefaultSinkFound, userdata) else {
        output.sinkThere = false
        output.wake()
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
    output.wake()
}

private func pulseOperationDone(_ stream: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().wake()
}
