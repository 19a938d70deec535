import Foundation

extension PCMAudio {
    /// The frequency of the tone in `frames` of `channel`, in Hz, from how often it crosses zero
    /// going up: for `HLSToneSource`'s pure tones, whose parts are 100 Hz apart, a tenth of a
    /// second tells which part it is (to within 10 Hz); a lossy codec's error is far too small to
    /// add or take a crossing. Nil for an empty or silent stretch.
    public func toneFrequency(in frames: Range<Int>, channel: Int = 0) -> Double? {
        let range = frames.clamped(to: 0..<frameCount)
        guard range.count > 1 else { return nil }
        var crossings = 0, previous = samples[range.lowerBound * channels + channel]
        for frame in range.dropFirst() {
            let sample = samples[frame * channels + channel]
            if previous < 0 && sample >= 0 { crossings += 1 }
            previous = sample
        }
        return crossings == 0 ? nil : Double(crossings) * Double(sampleRate) / Double(range.count)
    }

    /// The tone's frequency in the tenth of a second around `seconds` into the audio.
    public func toneFrequency(at seconds: Double, channel: Int = 0) -> Double? {
        let middle = Int(seconds * Double(sampleRate)), half = sampleRate / 20
        return toneFrequency(in: (middle - half)..<(middle + half), channel: channel)
    }
}
