/// Interleaved samples of one packet, at the width their `PCMFormat` says.
package enum PCMSamples: Sendable, Equatable {
    /// 16-bit sources: MP3, Opus, Vorbis, 16-bit FLAC.
    case int16([Int16])
    /// 24-bit sources, each value in the low 24 bits, sign-extended.
    case int32([Int32])

    /// Samples (not frames).
    package var count: Int {
        switch self {
        case .int16(let samples): samples.count
        case .int32(let samples): samples.count
        }
    }

    package var isEmpty: Bool { count == 0 }

    /// The 16-bit samples, or nil for wide ones (for tests that compare with 16-bit references).
    package var int16: [Int16]? {
        if case .int16(let samples) = self { samples } else { nil }
    }

    /// The samples of `range` (sample indexes), as a packet of their own.
    package func slice(_ range: Range<Int>) -> PCMSamples {
        switch self {
        case .int16(let samples): .int16(Array(samples[range]))
        case .int32(let samples): .int32(Array(samples[range]))
        }
    }

    /// The raw little-endian bytes, as the sound server takes them.
    package func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        switch self {
        case .int16(let samples): try samples.withUnsafeBytes(body)
        case .int32(let samples): try samples.withUnsafeBytes(body)
        }
    }
}
