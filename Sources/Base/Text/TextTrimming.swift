/// `trimmingCharacters(in: .whitespaces)` and `.whitespacesAndNewlines` without Foundation: the
/// ASCII blanks every header, config value and listing is trimmed of.
extension StringProtocol {
    /// Without leading and trailing spaces and tabs (`.whitespaces`, as far as headers go).
    package func trimmingBlanks() -> String {
        trimming { $0 == " " || $0 == "\t" }
    }

    /// Without leading and trailing white space and line ends (`.whitespacesAndNewlines`).
    package func trimmingWhitespace() -> String {
        trimming(\.isWhitespace)
    }

    private func trimming(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
