import Base

/// A size written for people: `"2 GiB"`, `"500 MB"`, `"64KiB"`, or a plain number of bytes.
package enum ByteCount {
    private static let units: [String: Int64] = [
        "": 1, "b": 1,
        "k": 1 << 10, "kib": 1 << 10, "kb": 1000,
        "m": 1 << 20, "mib": 1 << 20, "mb": 1_000_000,
        "g": 1 << 30, "gib": 1 << 30, "gb": 1_000_000_000,
        "t": 1 << 40, "tib": 1 << 40, "tb": 1_000_000_000_000,
    ]

    /// Bytes, or nil if `text` is not a size.
    package static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingBlanks()
        guard let split = trimmed.firstIndex(where: { !($0.isNumber || $0 == ".") }) ?? Optional(trimmed.endIndex),
              let number = Double(trimmed[..<split]), number >= 0,
              let unit = units[trimmed[split...].trimmingBlanks().lowercased()] else { return nil }
        let bytes = number * Double(unit)
        guard bytes < 9e18 else { return nil }
        return Int64(bytes)
    }

    /// `1.5 GiB`, `300 MiB`, `12 KiB`, `900 B`.
    package static func format(_ bytes: Int64) -> String {
        let value = Double(bytes)
        for (limit, unit) in [(Double(1 << 30), "GiB"), (Double(1 << 20), "MiB"), (Double(1 << 10), "KiB")] where value >= limit {
            let scaled = value / limit
            return scaled >= 100 ? "\(Int(scaled.rounded())) \(unit)" : "\((scaled * 10).rounded() / 10) \(unit)"
        }
        return "\(bytes) B"
    }
}
