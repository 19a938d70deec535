/// How long an ADTS file (`.aac`) plays, estimated as a scan can afford: ADTS has no index nor
/// a count of frames, and reading every header means reading the file. The frames of the first
/// window give the average frame's size; the audio's length divided by it, the frames. Exact
/// for a constant bit rate, within a few percent for the encoders' variable ones.
package enum ADTSDuration {
    /// Seconds of `audioBytes` of ADTS whose first frames `window` holds (from the first frame on).
    package static func estimate(_ window: ArraySlice<UInt8>, audioBytes: Int64) -> Double? {
        guard let first = ADTSHeader(window) else { return nil }
        var frames: [(bytes: Int, samples: Int)] = []
        var offset = window.startIndex
        while let header = ADTSHeader(window[offset...]), first.continues(with: header), offset + header.length <= window.endIndex {
            frames.append((header.length, header.samplesPerFrame))
            offset += header.length
        }
        // The first frames are the encoder's start (its delay, nearly silent, a few bytes each):
        // left out of the average where there are enough others.
        let typical = frames.count > 8 ? frames.dropFirst(4) : frames[...]
        let samples = typical.reduce(0) { $0 + $1.samples }
        guard samples > 0 else { return nil }
        let bytesPerSample = Double(typical.reduce(0) { $0 + $1.bytes }) / Double(samples)
        return Double(audioBytes) / bytesPerSample / Double(first.sampleRate)
    }
}
