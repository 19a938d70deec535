import CPulse

/// Pause and volume: a cork of the stream and the sink input's volume, so both act at once,
/// whatever the server has buffered. Kept here when there is no ready stream to apply them to,
/// and applied when there is one.
extension PulseOutput {
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

    /// With the lock held.
    func applyPause() {
        if let stream = readyStream, let operation = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// With the lock held.
    func applyVolume() {
        guard let stream = readyStream, let format else { return }
        var levels = channelVolume(channels: format.channels)
        if let operation = pa_context_set_sink_input_volume(context, pa_stream_get_index(stream), &levels, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// The volume on every channel, as a stream of `channels` starts with it.
    func channelVolume(channels: Int) -> pa_cvolume {
        var levels = pa_cvolume()
        pa_cvolume_set(&levels, UInt32(channels), pa_sw_volume_from_linear(volume))
        return levels
    }
}
