/// The shape of the PCM that flows from decoders to outputs: interleaved signed little-endian
/// samples at the track's own rate, channel count and depth. 16-bit samples travel as `Int16`;
/// deeper ones as `Int32`: 24-bit (FLAC, WAV, ALAC) holding the value in its low 24 bits
/// (PulseAudio's S24_32LE), 32-bit (FLAC 1.4 writes it) filling the word (S32LE) — so a lossless
/// source reaches the output without losing its low bits.
/// Channels are in WAVE/FLAC order (FL FR FC LFE BL BR SL SR): decoders of other orders reorder.
package struct PCMFormat: Sendable, Hashable, CustomStringConvertible {
    package var sampleRate: Int
    package var channels: Int
    /// 16, 24 or 32: the significant bits of each sample.
    package var bitsPerSample: Int

    package init(sampleRate: Int, channels: Int, bitsPerSample: Int = 16) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
    }

    /// Whether samples travel as `Int32` (`PCMSamples.int32`) rather than `Int16`.
    package var isWide: Bool { bitsPerSample > 16 }

    /// The depth the samples travel at: 16, 24 or 32 (a shallower source shifted up to it).
    package var depth: Int { isWide ? (bitsPerSample > 24 ? 32 : 24) : 16 }

    /// The magnitude of the most negative sample: 2^15, 2^23 or 2^31.
    package var fullScale: Double { Double(1 << (depth - 1)) }

    /// Bytes of one frame in memory and in the stream to the sound server.
    package var bytesPerFrame: Int { channels * (isWide ? MemoryLayout<Int32>.size : MemoryLayout<Int16>.size) }

    package var description: String {
        "\(sampleRate) Hz, \(channels) ch" + (isWide ? ", \(bitsPerSample)-bit" : "")
    }
}
