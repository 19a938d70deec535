import CPulse
import Model

/// The stream's set-up: one playback stream per format, opened on the named sink (or where the
/// server routes it), with the sample spec and channel map the PCM comes in. A change of rate,
/// depth or channels opens a new stream.
extension PulseOutput {
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
            // 24-bit sources as S24_32LE, 32-bit as S32LE: a change of depth reopens the stream, as
            // one of rate does.
            let sampleFormat = [16: PA_SAMPLE_S16LE, 24: PA_SAMPLE_S24_32LE, 32: PA_SAMPLE_S32LE][newFormat.depth]!
            var spec = pa_sample_spec(format: sampleFormat,
                                      rate: UInt32(newFormat.sampleRate), channels: UInt8(newFormat.channels))
            var map = Self.channelMap(channels: newFormat.channels)
            guard let created = pa_stream_new(context, "Music", &spec, &map) else { throw serverError() }
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_stream_set_state_callback(created, pulseStreamChanged, me)
            pa_stream_set_write_callback(created, pulseStreamWritable, me)
            pa_stream_set_moved_callback(created, pulseStreamMoved, me)
            var attributes = Self.bufferAttributes(for: newFormat)
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
        try await mainloop.wait { try streamIsReady() }
    }

    /// Disconnects the stream, if there is one. With the lock held.
    func dropStream() {
        guard let current = stream else { return }
        pa_stream_set_state_callback(current, nil, nil)
        pa_stream_set_write_callback(current, nil, nil)
        pa_stream_set_moved_callback(current, nil, nil)
        pa_stream_disconnect(current)
        pa_stream_unref(current)
        stream = nil
        format = nil
    }

    /// The stream as ready for cork and volume: both fail on a stream still connecting, and
    /// `start` applies them once it is ready. With the lock held.
    var readyStream: OpaquePointer? {
        guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return nil }
        return stream
    }

    private func streamIsReady() throws -> Bool {
        guard let stream else { throw closedError() }
        try checkHealthy()
        return pa_stream_get_state(stream) == PA_STREAM_READY
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
}

private func pulseStreamChanged(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().mainloop.wake()
}

private func pulseStreamWritable(_ stream: OpaquePointer?, _ bytes: Int, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().mainloop.wake()
}
