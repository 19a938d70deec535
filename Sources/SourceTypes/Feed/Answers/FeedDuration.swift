import Base

/// Reads `itunes:duration`, which feeds give as "1:02:03", "62:03" or plain seconds ("3723",
/// "3723.5"): anything else is no duration.
package enum FeedDuration {
    package static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), trimmed.count <= 32 else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            // Only the seconds may have a fraction; minutes and seconds after a colon stay below 60.
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  part.filter({ $0 == "." }).count <= 1, let value = Double(part) else { return nil }
            if index > 0 && value >= 60 { return nil }
            total = total * 60 + value
        }
        return total.isFinite ? total : nil
    }
}
