import CPulse
import Model

/// Writing at the server's pace: the stream's buffer and how often the server asks for more,
/// writes that wait for room, the drain at the end, and the played position the timeline reads.
extension PulseOutput {
    /// Server-side buffer of the stream (PulseAudio's own default): it rides out a process that
    /// is starved of CPU for a while. Its length costs no responsiveness: pause is a cork, volume
    /// acts on the sink input, and a seek drops the stream.
    static let bufferSeconds = 2.0
    /// How many server requests fill the buffer once (`minreq` = its quarter).
    static let requestsPerBuffer: UInt32 = 4

    /// The buffer a stream of `format` asks for. The server asks for more when a quarter of it is
    /// free: writes of 0.5 s, two a second. Left to the server (-1), minreq came out far smaller,
    /// and every request wakes the mainloop thread and a writer.
    static func bufferAttributes(for format: PCMFormat) -> pa_buffer_attr {
        let frame = UInt32(format.bytesPerFrame)
        let bufferBytes = UInt32(bufferSeconds * Double(format.sampleRate)) * frame
        let requestBytes = bufferBytes / requestsPerBuffer / frame * frame
        return pa_buffer_attr(maxlength: UInt32.max, tlength: bufferBytes, prebuf: UInt32.max,
                              minreq: requestBytes, fragsize: UInt32.max)
    }

    package func write(_ samples: PCMSamples) async throws {
        let total = samples.withUnsafeBytes(\.count)
        var offset = 0
        while offset < total {
            var room = 0
            try await mainloop.wait {
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
        try await mainloop.wait {
            try checkHealthy()
            return pa_operation_get_state(operation) != PA_OPERATION_RUNNING
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

    /// Bytes the server takes now, in whole frames; 0 when it takes none. With the lock held.
    private func writableBytes() throws -> Int {
        guard let stream, let format else { throw closedError() }
        try checkHealthy()
        guard pa_stream_get_state(stream) == PA_STREAM_READY else { return 0 }
        let size = pa_stream_writable_size(stream)
        guard size != Int.max, size != -1 else { throw serverError() }
        return size / format.bytesPerFrame * format.bytesPerFrame
    }
}

private func pulseOperationDone(_ stream: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().mainloop.wake()
}
