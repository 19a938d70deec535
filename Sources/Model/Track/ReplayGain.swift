/// A track's loudness tags (ReplayGain 2.0): the gain in dB that brings it, or its album, to the
/// reference loudness, and the peak sample (1.0 = full scale) that gain must not push past.
/// From `REPLAYGAIN_*` comments and ID3 `TXXX` frames, `RVA2`, or Opus's `R128_*` (made
/// comparable by the reader); every field may be missing.
package struct ReplayGain: Sendable, Hashable {
    package var trackGain: Double?
    package var trackPeak: Double?
    package var albumGain: Double?
    package var albumPeak: Double?

    package init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    package var isEmpty: Bool { trackGain == nil && albumGain == nil }

    /// These values, with the ones missing taken from `other`.
    package func filled(from other: ReplayGain) -> ReplayGain {
        ReplayGain(trackGain: trackGain ?? other.trackGain, trackPeak: trackPeak ?? other.trackPeak,
                   albumGain: albumGain ?? other.albumGain, albumPeak: albumPeak ?? other.albumPeak)
    }
}
