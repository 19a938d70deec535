/// Durations as people write them in the config file and on the command line: "90s", "10m",
/// "1h30m", "2.5s" — numbers each followed by h, m or s, larger units first, each once.
package enum DurationText {
    /// Seconds, or nil for anything else (a bare number included: its unit would be a guess).
    package static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["h": 3600, "m": 60, "s": 1]
        var total = 0.0, number = "", smallest = Double.infinity
        for character in text {
            if let scale = units[character] {
                guard let value = Double(number), value >= 0, value.isFinite, scale < smallest else { return nil }
                total += value * scale
                smallest = scale
                number = ""
            } else {
                guard character.isASCII, character.isNumber || character == "." else { return nil }
                number.append(character)
            }
        }
        return number.isEmpty && smallest.isFinite ? total : nil
    }
}
