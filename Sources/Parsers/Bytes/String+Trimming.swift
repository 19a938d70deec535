extension StringProtocol where UnicodeScalarView.SubSequence == Substring.UnicodeScalarView {
    /// The text without `drop`'s characters at either end — by default Unicode's white space,
    /// line ends included, as Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`
    /// (which needs all of Foundation) trims it.
    package func trimming(while drop: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) }) else {
            return ""
        }
        return String(scalars[first...last])
    }
}
