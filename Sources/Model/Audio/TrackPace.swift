/// How a track is played out, decided for each track (by its source, or the user): the speed,
/// its pitch kept, and whether long silences are shortened. The output applies it from the
/// track's first sample; the natural pace plays the samples as they are, bit for bit.
package struct TrackPace: Sendable, Hashable {
    /// Times its recorded pace (`PlaybackSettings.speeds`).
    package var speed: Double
    /// Long silences shortened (`skip_silence`): for speech, never music unless asked.
    package var skipsSilence: Bool

    package init(speed: Double = 1, skipsSilence: Bool = false) {
        self.speed = speed
        self.skipsSilence = skipsSilence
    }

    /// The samples as they are.
    package static let natural = TrackPace()
}
