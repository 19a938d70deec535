/// The numbers HLS writes (RFC 8216 §4.2): decimal integers, decimal floats and byte ranges
/// `n[@o]`, read strictly (digits only, no sign) so garbage is refused, not guessed at.
enum HLSNumbers {
    /// A decimal-integer; nil for anything else, or one past `Int64.max`.
    static func integer(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    /// A decimal-floating-point (digits, optionally a point and more digits): a duration.
    static func decimal(_ text: some StringProtocol) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, text.utf8.count <= 32,
              parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `n[@o]`: a sub-range's length and, if given, its offset.
    static func byteRange(_ text: some StringProtocol) -> (length: Int64, offset: Int64?)? {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = parts.first.flatMap({ integer($0) }) else { return nil }
        guard parts.count == 2 else { return (Int64(length), nil) }
        guard let offset = integer(parts[1]), offset <= Int.max - length else { return nil }
        return (Int64(length), Int64(offset))
    }
}
