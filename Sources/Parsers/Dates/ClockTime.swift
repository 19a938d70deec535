import Base

/// A duration written as a clock — `H:MM:SS` or `M:SS`, a fraction on the seconds only
/// (`1:02:03.5`) — or, where allowed, a bare number of seconds (`3723.5`). Minutes and seconds
/// after a colon stay below 60; anything else is no duration. The one reading of it, for
/// `itunes:duration` in feeds and the chapter starts of Vorbis comments (`CHAPTER001=00:01:30.500`).
package enum ClockTime {
    /// The seconds `text` stands for; `plainSeconds`: a bare number (no colon) is taken too.
    package static func seconds(_ text: String, plainSeconds: Bool) -> Double? {
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard ((plainSeconds ? 1 : 2)...3).contains(parts.count), trimmed.count <= 32 else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  part.filter({ $0 == "." }).count <= 1, let value = Double(part) else { return nil }
            if index > 0 && value >= 60 { return nil }
            total = total * 60 + value
        }
        return total.isFinite ? total : nil
    }
}
