/// Decoded samples waiting for a read, at the width the track plays at. libFLAC hands over whole
/// blocks (often 4096 frames) in channel planes; a read takes as many frames as it asks for.
struct SampleBacklog<Sample: FixedWidthInteger> {
    private var samples: [Sample] = []
    private var start = 0

    /// Samples (not frames) waiting.
    var count: Int { samples.count - start }

    mutating func clear() {
        samples.removeAll(keepingCapacity: true)
        start = 0
    }

    /// Makes room for `count` samples in an empty backlog, so appending block by block does not
    /// grow (and copy) the array again and again.
    mutating func reserve(_ count: Int) {
        if samples.isEmpty { samples.reserveCapacity(count) }
    }

    /// Appends `frames` frames given as one plane per channel, each sample shifted left by `shift`
    /// bits (to the played depth), interleaved.
    mutating func append(planes: UnsafePointer<UnsafePointer<Int32>?>, channels: Int, frames: Int, shift: Int32) {
        let first = samples.count
        samples.append(contentsOf: repeatElement(0, count: frames * channels))
        samples.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress! + first
            if channels == 2 {  // the common case, in one sequential pass the compiler vectorises
                let left = planes[0]!, right = planes[1]!
                for frame in 0..<frames {
                    out[2 * frame] = Sample(truncatingIfNeeded: left[frame] << shift)
                    out[2 * frame + 1] = Sample(truncatingIfNeeded: right[frame] << shift)
                }
                return
            }
            for channel in 0..<channels {
                let plane = planes[channel]!
                var index = channel
                for frame in 0..<frames {
                    out[index] = Sample(truncatingIfNeeded: plane[frame] << shift)
                    index += channels
                }
            }
        }
    }

    /// Appends `frames` frames of `channels`, interleaved: `fill(channel, out)` writes one
    /// channel's samples at `out[0]`, `out[channels]`, `out[2 · channels]`… (from FFmpeg's planes).
    mutating func append(frames: Int, channels: Int, _ fill: (_ channel: Int, _ out: UnsafeMutablePointer<Sample>) -> Void) {
        let first = samples.count
        samples.append(contentsOf: repeatElement(0, count: frames * channels))
        samples.withUnsafeMutableBufferPointer { buffer in
            for channel in 0..<channels { fill(channel, buffer.baseAddress! + first + channel) }
        }
    }

    /// Appends `count` samples that `fill` writes, interleaved, at the pointer it is given.
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<Sample>) -> Void) {
        let first = samples.count
        samples.append(contentsOf: repeatElement(0, count: count))
        samples.withUnsafeMutableBufferPointer { buffer in fill(buffer.baseAddress! + first) }
    }

    /// Takes up to `limit` samples from the front.
    mutating func take(upTo limit: Int) -> [Sample] {
        if start == 0 && limit >= samples.count {  // all of it: handed over, not copied
            defer { samples = [] }
            return samples
        }
        let taken = Array(samples[start..<(start + min(limit, count))])
        start += taken.count
        // Drop what was read once it is the larger part, so a backlog never grows with the track.
        if start == samples.count {
            clear()
        } else if start > samples.count / 2 {
            samples.removeSubrange(0..<start)
            start = 0
        }
        return taken
    }
}
