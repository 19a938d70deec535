import CAVCodec
import CSampleGain
import Model

/// FFmpeg's decoded frames to the player's samples, for every decoder that uses it (MP4, ADTS):
/// AAC's float planes to 16 bits as FFmpeg's own `-f wav` does (`lrintf(x·32768)`, clipped);
/// ALAC's integer planes as they were encoded, 16 or 24 bits.
extension FFmpegCodec {
    /// Takes every frame the decoder has ready, keeping those of its samples whose time (in
    /// frames of the decoded stream; `time` is the next one's, and moves on) falls in `kept`:
    /// an encoder's delay, a seek's pre-roll and the padding after the end are dropped.
    func receive(keeping kept: Range<Int64>, time: inout Int64, as format: PCMFormat, codec: AudioCodec,
                 narrow: inout SampleBacklog<Int16>, wide: inout SampleBacklog<Int32>) throws {
        try receive { frame in
            let count = Int64(frame.nb_samples)
            let first = Int(min(count, max(0, kept.lowerBound - time)))
            let end = Int(max(Int64(first), min(count, kept.upperBound - time)))
            time += count
            if end > first { try Self.append(frame, from: first, to: end, as: format, codec: codec, narrow: &narrow, wide: &wide) }
        }
    }

    /// Appends frames `first..<end` of `frame`, which must be in `format`, to the backlog its width takes.
    private static func append(_ frame: AVFrame, from first: Int, to end: Int, as format: PCMFormat, codec: AudioCodec,
                       narrow: inout SampleBacklog<Int16>, wide: inout SampleBacklog<Int32>) throws {
        let channels = format.channels
        guard Int(frame.ch_layout.nb_channels) == channels else { throw DecoderError.formatChanged(codec) }
        guard Int(frame.sample_rate) == format.sampleRate else {
            throw DecoderError.decodeFailed(codec, "its rate changes from \(format.sampleRate) Hz to \(frame.sample_rate) Hz")
        }
        let planes = frame.extended_data!
        let count = end - first
        func plane<T>(_ channel: Int, _: T.Type) -> UnsafePointer<T> {
            UnsafeRawPointer(planes[channel]!).assumingMemoryBound(to: T.self) + first
        }
        switch AVSampleFormat(rawValue: frame.format) {
        case AV_SAMPLE_FMT_FLTP:
            narrow.append(count: count * channels) { out in
                let floats = UnsafeRawPointer(planes).assumingMemoryBound(to: UnsafePointer<Float>?.self)
                cp_float_planes_to_int16(floats, channels, first, count, out)
            }
        case AV_SAMPLE_FMT_S16P:
            narrow.append(frames: count, channels: channels) { channel, out in
                let input = plane(channel, Int16.self)
                for index in 0..<count { out[index * channels] = input[index] }
            }
        case AV_SAMPLE_FMT_S32P where format.isWide:
            wide.append(frames: count, channels: channels) { channel, out in
                let input = plane(channel, Int32.self)
                for index in 0..<count { out[index * channels] = input[index] >> 8 }
            }
        case let other:
            throw DecoderError.decodeFailed(codec, "FFmpeg's sample format \(other.rawValue), which cloudplayerd does not take")
        }
    }
}
