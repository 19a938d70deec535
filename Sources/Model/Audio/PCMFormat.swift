/// The shape of the PCM that flows from decoders to outputs: interleaved signed 16-bit
/// little-endian samples at the track's own rate and channel count.
package struct PCMFormat: Sendable, Hashable, CustomStringConvertible {
    package var sampleRate: Int
    package var channels: Int

    package init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    package var bytesPerFrame: Int { channels * MemoryLayout<Int16>.size }

    package var description: String { "\(sampleRate) Hz, \(channels) ch" }
}
