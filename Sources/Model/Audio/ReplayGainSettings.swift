import FoundationEssentials
import Glibc

/// How loudness tags are applied: `[playback] replaygain`, `replaygain_preamp`,
/// `replaygain_clip`, and `cloudplayerd play --replaygain`.
package struct ReplayGainSettings: Sendable, Hashable {
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        case off, track, album
        /// Album gain while consecutive tracks of one album play (an album keeps its own dynamics),
        /// track gain otherwise (a shuffled mix plays evenly loud).
        case auto
    }

    package var mode: Mode
    /// Added to every tagged gain, in dB.
    package var preamp: Double
    /// Whether the gain is lowered so that the tagged peak stays at or under full scale.
    package var preventClipping: Bool

    package init(mode: Mode = .off, preamp: Double = 0, preventClipping: Bool = true) {
        self.mode = mode
        self.preamp = preamp
        self.preventClipping = preventClipping
    }

    /// The factor samples are scaled by, or nil to leave them as they are (off, or no tag).
    /// `inAlbumRun`: the track plays between tracks of its own album (for `auto`).
    package func factor(for gain: ReplayGain, inAlbumRun: Bool) -> Double? {
        let useAlbum: Bool
        switch mode {
        case .off: return nil
        case .track: useAlbum = false
        case .album: useAlbum = true
        case .auto: useAlbum = inAlbumRun
        }
        // The other kind stands in when the chosen one is missing, as MPD and foobar2000 do.
        let chosen = useAlbum ? (gain.albumGain, gain.albumPeak) : (gain.trackGain, gain.trackPeak)
        let fallback = useAlbum ? (gain.trackGain, gain.trackPeak) : (gain.albumGain, gain.albumPeak)
        let (decibels, peak) = chosen.0 != nil ? chosen : fallback
        guard let decibels, decibels.isFinite else { return nil }
        var factor = Self.factor(decibels: decibels + preamp)
        if preventClipping, let peak, peak.isFinite, peak > 0 { factor = min(factor, 1 / peak) }
        return factor
    }

    /// 10^(dB/20).
    package static func factor(decibels: Double) -> Double {
        exp(decibels * log(10) / 20)
    }
}
