/// A length of time as a clock shows it — `3:07`, `1:02:03` — for what people read: the
/// command line's tables, the daemon's answers about a track's length.
package enum ClockDuration {
    /// Whole seconds, rounded; empty when unknown (nil, negative or not finite).
    package static func text(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "" }
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? "\(hours):\(minutes.zeroPadded(2)):\(rest.zeroPadded(2))" : "\(minutes):\(rest.zeroPadded(2))"
    }
}
