/// `trimmingCharacters(in: .whitespaces)` and `.whitespacesAndNewlines` without Foundation (which
/// needs ICU for them): what every header, config value, listing and answer is trimmed of.
extension StringProtocol where UnicodeScalarView.SubSequence == Substring.UnicodeScalarView {
    /// Without leading and trailing spaces and tabs (`.whitespaces`, as far as headers go).
    package func trimmingBlanks() -> String {
        trimming(while: { $0 == " " || $0 == "\t" })
    }

    /// Without leading and trailing white space and line ends, Unicode's as Foundation's
    /// `.whitespacesAndNewlines` counts them (no-break space and U+2028 included).
    package func trimmingWhitespace() -> String {
        trimming(while: \.properties.isWhitespace)
    }

    /// Without the scalars `drop` says yes to at either end; scalar by scalar, so a combining
    /// mark after a space is text, not white space.
    package func trimming(while drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) }) else {
            return ""
        }
        return String(scalars[first...last])
    }
}
