import Foundation

/// Interleaved 16-bit PCM with its shape, as read from a WAV file or a raw capture.
public struct PCMAudio: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var samples: [Int16]

    public init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    public var frameCount: Int { samples.count / channels }

    /// Reads a 16-bit PCM WAV file (any chunk layout; the `data` chunk's samples).
    public init(wavFile url: URL) throws {
        self = try WAVFile(url).pcm16()
    }

    /// Reads raw s16le samples (a `parec --raw` capture).
    public init(rawFile url: URL, sampleRate: Int, channels: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: url))
        self.init(sampleRate: sampleRate, channels: channels, samples: Self.samples(bytes[...]))
    }

    static func samples(_ bytes: ArraySlice<UInt8>) -> [Int16] {
        var result = [Int16](repeating: 0, count: bytes.count / 2)
        var index = bytes.startIndex
        for i in result.indices {
            result[i] = Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
            index += 2
        }
        return result
    }

    /// Frames from `start` on (or to `end`).
    public func frames(from start: Int, to end: Int? = nil) -> PCMAudio {
        let last = min(end ?? frameCount, frameCount)
        let first = min(start, last)
        return PCMAudio(sampleRate: sampleRate, channels: channels,
                        samples: Array(samples[(first * channels)..<(last * channels)]))
    }

    public static func + (lhs: PCMAudio, rhs: PCMAudio) -> PCMAudio {
        PCMAudio(sampleRate: lhs.sampleRate, channels: lhs.channels, samples: lhs.samples + rhs.samples)
    }

    /// The largest difference between two equally long sample arrays, in LSB.
    public func maxDifference(to other: PCMAudio) -> Int {
        zip(samples, other.samples).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// Root mean square over all samples.
    public var rms: Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Where `needle`'s first `probeFrames` frames appear, as a frame index, or nil.
    public func firstFrame(matching needle: PCMAudio, probeFrames: Int = 2048) -> Int? {
        let probe = Array(needle.samples.prefix(probeFrames * channels))
        guard !probe.isEmpty, samples.count >= probe.count else { return nil }
        var frame = 0
        while (frame * channels) + probe.count <= samples.count {
            let start = frame * channels
            if samples[start] == probe[0], Array(samples[start..<(start + probe.count)]) == probe { return frame }
            frame += 1
        }
        return nil
    }
}

extension PCMAudio: CustomStringConvertible {
    /// A summary, not the samples: a failed comparison should print a line, not megabytes.
    public var description: String {
        "PCMAudio(\(sampleRate) Hz, \(channels) ch, \(frameCount) frames, rms \(Int(rms)))"
    }
}

extension PCMAudio {
    private func isSilent(_ frame: Int) -> Bool {
        (0..<channels).allSatisfy { samples[frame * channels + $0] == 0 }
    }

    /// From the first to the last frame that is not silent.
    public func audibleSpan() -> Range<Int> {
        guard let first = (0..<frameCount).first(where: { !isSilent($0) }),
              let last = (0..<frameCount).last(where: { !isSilent($0) }) else { return 0..<0 }
        return first..<(last + 1)
    }

    /// The same audio with every all-zero frame taken out.
    public func droppingSilentFrames() -> PCMAudio {
        var kept: [Int16] = []
        kept.reserveCapacity(samples.count)
        for frame in 0..<frameCount where !isSilent(frame) {
            kept += samples[(frame * channels)..<((frame + 1) * channels)]
        }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: kept)
    }

    /// The longest run of all-zero frames inside `range`.
    public func longestSilence(within range: Range<Int>) -> Int {
        var longest = 0, current = 0
        for frame in range {
            current = isSilent(frame) ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }
}
