import Base
import Model

/// Gathers loudness tags from the fields where taggers put them: `REPLAYGAIN_*` comments and
/// ID3 `TXXX` frames ("-6.48 dB", "0.988547"), Opus's `R128_*` comments, and ID3 `RVA2` frames.
struct ReplayGainReader {
    private var tagged = ReplayGain()
    private var r128 = ReplayGain()
    private var relative = ReplayGain()

    /// What was found. Opus's R128 gains, the ones its spec names, win over `REPLAYGAIN_*` ones
    /// some taggers add too; those win over `RVA2` frames, wherever they stand in the tag.
    var gain: ReplayGain { r128.filled(from: tagged).filled(from: relative) }

    /// Takes `value` if `key` (a comment's name or a TXXX frame's description, any case) is a
    /// loudness tag; returns whether it was.
    @discardableResult
    mutating func take(_ key: String, _ value: String) -> Bool {
        switch key.uppercased() {
        case "REPLAYGAIN_TRACK_GAIN": tagged.trackGain = tagged.trackGain ?? Self.decibels(value)
        case "REPLAYGAIN_TRACK_PEAK": tagged.trackPeak = tagged.trackPeak ?? Self.peak(value)
        case "REPLAYGAIN_ALBUM_GAIN": tagged.albumGain = tagged.albumGain ?? Self.decibels(value)
        case "REPLAYGAIN_ALBUM_PEAK": tagged.albumPeak = tagged.albumPeak ?? Self.peak(value)
        case "R128_TRACK_GAIN": r128.trackGain = r128.trackGain ?? Self.r128(value)
        case "R128_ALBUM_GAIN": r128.albumGain = r128.albumGain ?? Self.r128(value)
        default: return false
        }
        return true
    }

    /// An ID3v2.4 `RVA2` frame: an identification ("track", "album"), then per channel a type,
    /// a gain in 1/512 dB (signed, big-endian), and a peak of a given bit width. Only the master
    /// volume (type 1) is a ReplayGain value.
    mutating func takeRVA2(_ body: ArraySlice<UInt8>) {
        let (identification, rest) = ID3Text.terminated(body, encoding: 0)
        var reader = ByteReader(rest)
        while let channel = reader.u8(), let high = reader.u8(), let low = reader.u8(), let bits = reader.u8() {
            let peakBytes = (Int(bits) + 7) / 8
            guard let peakData = reader.take(peakBytes) else { return }
            guard channel == 1 else { continue }
            let decibels = Double(Int16(bitPattern: UInt16(high) << 8 | UInt16(low))) / 512
            // The peak as a fraction of full scale, from a `bits`-wide unsigned integer.
            let peak: Double? = bits == 0 || bits > 32 ? nil
                : Double(peakData.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> UInt64(peakBytes * 8 - Int(bits)))
                    / Double(UInt64(1) << UInt64(bits - 1))
            if identification.lowercased() == "album" {
                relative.albumGain = relative.albumGain ?? decibels
                relative.albumPeak = relative.albumPeak ?? peak
            } else {
                relative.trackGain = relative.trackGain ?? decibels
                relative.trackPeak = relative.trackPeak ?? peak
            }
            return
        }
    }

    /// "-6.48 dB", "+2.1 dB", "-6.48": a number of dB within what any tagger writes.
    static func decibels(_ text: String) -> Double? {
        var number = text.trimmingWhitespace()
        if number.lowercased().hasSuffix("db") { number = String(number.dropLast(2)).trimmingWhitespace() }
        if number.hasPrefix("+") { number.removeFirst() }
        guard let value = Double(number), value.isFinite, abs(value) <= 64 else { return nil }
        return value
    }

    /// "0.988547": a peak, 0 to a few times full scale (a clipped decode).
    static func peak(_ text: String) -> Double? {
        guard let value = Double(text.trimmingWhitespace()), value.isFinite, value > 0, value <= 16 else { return nil }
        return value
    }

    /// Opus's R128 gain: a Q7.8 integer ("-512" = −2 dB) relative to the header's output gain,
    /// which the decoder applies already, aiming at −23 LUFS; 5 dB more makes it aim where
    /// ReplayGain does (about −18 LUFS), so Opus tracks play as loud as the others.
    static func r128(_ text: String) -> Double? {
        guard let value = Int(text.trimmingWhitespace()), value >= -32768, value <= 32767 else { return nil }
        return Double(value) / 256 + 5
    }
}
