/// Reads the numbers hidden in tag text ("3/12", "2021-03-04", " 07 "): tags are free text, so
/// only a sane leading number counts and anything else is no value rather than an error.
package enum TagValue {
    /// The leading decimal number of `text` (after spaces), if it is 1…`limit`.
    package static func leadingNumber(_ text: String, limit: Int = 100_000) -> Int? {
        let digits = text.drop(while: { $0 == " " }).prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 9, let value = Int(digits), value >= 1, value <= limit else { return nil }
        return value
    }

    /// The year a date starts with ("2021", "2021-03-04", "2021-03-04T10:00"): four digits.
    package static func year(_ text: String) -> Int? {
        let trimmed = text.drop(while: { $0 == " " })
        let digits = trimmed.prefix(while: { $0.isASCII && $0.isNumber })
        guard digits.count == 4, let value = Int(digits), value >= 1 else { return nil }
        return value
    }
}
