/// iTunes' gapless information, the freeform item `----:com.apple.iTunes:iTunSMPB`: twelve hex
/// words, of which the second is the encoder's delay (priming), the third the padding after the
/// audio, the fourth the samples of audio — in the track's timescale. No spec: this is how iTunes,
/// qaac, fdkaac and Winamp write it (a space before each word, or not), and what FFmpeg reads.
/// Files without an edit list (older iTunes, some taggers' rewrites) say their gaps only here.
package struct ITunesGapless: Sendable, Equatable {
    package var priming: Int64
    package var padding: Int64
    package var samples: Int64

    package init(priming: Int64, padding: Int64, samples: Int64) {
        self.priming = priming
        self.padding = padding
        self.samples = samples
    }

    /// The item's text; nil if it is not at least four hex words or its delay is implausible
    /// (FFmpeg takes a priming from 1 to 16383 only).
    package init?(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\0" }).prefix(4)
        guard words.count == 4, words.allSatisfy({ $0.count <= 16 }),
              let priming = Int64(words[1], radix: 16), let padding = Int64(words[2], radix: 16),
              let samples = Int64(words[3], radix: 16), (1..<16384).contains(priming) else { return nil }
        self.init(priming: priming, padding: padding, samples: samples)
    }

    /// What is heard of a media `total` ticks long: from the priming, for the samples it states
    /// when they fit (else to the end).
    package func heard(total: Int64) -> (start: Int64, length: Int64) {
        let start = min(total, priming)
        let length = samples > 0 && samples <= total - start ? samples : total - start
        return (start, length)
    }
}
