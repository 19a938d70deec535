import Foundation

/// The audio every HLS fixture encodes: a sine tone whose frequency steps up part by part (400 Hz,
/// 500 Hz, …), 44.1 kHz stereo, made by ffmpeg's `aevalsrc` — the same samples on every run. A
/// stretch of decoded audio tells by its pitch which part it came from, so a test can say what
/// plays after a seek, a skipped segment or a switch of variant, where noise could only be
/// matched sample for sample against one particular encoding.
public struct HLSToneSource: Sendable, Equatable {
    /// Seconds of audio; nil for a live source, which never ends.
    public let seconds: Double?
    public let sampleRate: Int
    public let channels: Int
    /// Seconds each tone lasts.
    public let partSeconds: Double
    /// Parts before the frequencies repeat (a live source's cycle); nil: they never do.
    public let cycle: Int?
    public let baseHz = 400
    public let stepHz = 100

    public init(seconds: Double?, partSeconds: Double, cycle: Int? = nil, sampleRate: Int = 44100, channels: Int = 2) {
        (self.seconds, self.partSeconds, self.cycle, self.sampleRate, self.channels) = (seconds, partSeconds, cycle, sampleRate, channels)
    }

    /// The VOD fixtures' source: 19.5 s in parts of 2 s, 400 Hz up to 1300 Hz. Not 20 s: then the
    /// encoder's priming left a last segment of 23 ms.
    public static let vod = HLSToneSource(seconds: 19.5, partSeconds: 2)

    /// The frequency of part `index` (counted from 0).
    public func frequency(ofPart index: Int) -> Int {
        baseHz + stepHz * (cycle.map { index % $0 } ?? index)
    }

    /// The frequency `seconds` into the source.
    public func frequency(at seconds: Double) -> Int {
        frequency(ofPart: Int(seconds / partSeconds))
    }

    /// The parts' frequencies, in order (of one cycle, for a live source).
    public var frequencies: [Int] {
        let parts = cycle ?? Int((seconds ?? 0) / partSeconds + 0.999)
        return (0..<parts).map(frequency(ofPart:))
    }

    /// ffmpeg's input arguments for this audio (`-f lavfi -i aevalsrc=…`). Within a part the
    /// phase runs on from t = 0, so each part is a pure tone and parts meet with a jump.
    public var ffmpegInput: [String] {
        let part = "floor(t/\(partSeconds))"
        let index = cycle.map { "mod(\(part)\\,\($0))" } ?? part
        let layout = channels == 1 ? "mono" : "stereo"
        let length = seconds.map { ":d=\($0)" } ?? ""
        return ["-f", "lavfi", "-i", "aevalsrc=exprs=0.4*sin(2*PI*t*(\(baseHz)+\(stepHz)*\(index))):s=\(sampleRate):c=\(layout)\(length)"]
    }
}
