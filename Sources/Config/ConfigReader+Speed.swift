/// `speed`, in `[playback]` and in a `[[source]]`.
extension ConfigReader {
    /// The speeds the config may name: Model's `PlaybackSettings.speeds` (Config is below Model;
    /// a test checks the two agree).
    package static let speeds: ClosedRange<Double> = 0.5...3

    /// `speed`: how many times its recorded pace a track plays at, its pitch kept.
    package func speed(_ table: TOMLTable, in section: String) throws(ConfigError) -> Double? {
        guard let speed = try number(table, "speed", in: section) else { return nil }
        guard Self.speeds.contains(speed.value) else {
            throw ConfigError(line: speed.line, key: qualified("speed", section), "must be from 0.5 to 3 (1 plays at the recorded pace)")
        }
        return speed.value
    }
}
