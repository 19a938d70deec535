/// The shape of the PCM that flows from decoders to outputs: interleaved signed 16-bit
/// little-endian samples at the track's own rate and channel count.
public struct PCMFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var bytesPerFrame: Int { channels * MemoryLayout<Int16>.size }

    public var description: String { "\(sampleRate) Hz, \(channels) ch" }
}
