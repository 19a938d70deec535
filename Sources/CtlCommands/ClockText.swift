import Config

/// Positions and durations as people type them: "42", "1:30", "1:02:03", or with units, "90s",
/// "10m", "1h30m", "2.5s".
enum ClockText {
    /// Seconds from any of those forms; nil otherwise.
    static func seconds(_ text: String) -> Double? {
        if let last = text.last, "hms".contains(last) { return DurationText.seconds(text) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard let value = isLast ? Double(part) : Int(part).map(Double.init), value >= 0, value.isFinite else { return nil }
            // Minutes and seconds after the first part stay under 60.
            guard index == 0 || value < 60 else { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }
}
