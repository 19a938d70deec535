import SQLite

/// MPD's `=~` and `!~` in SQL: `regex_matches(pattern, foldCase, text)` is 1 where the regular
/// expression finds a match anywhere in the text (unanchored, as MPD's PCRE match is), its case
/// ignored when `foldCase` is 1 (`search`'s comparisons); never for NULL text — a track without
/// the tag, which MPD 0.23 finds with no expression, not even `^$`. The expression is the
/// Swift standard library's (a Perl-like syntax, as PCRE's). Each pattern is compiled once and
/// kept (a few: a query uses one or two), used only on the connection's thread.
package final class LibraryRegex {
    static let function = "regex_matches"
    /// Patterns kept compiled at most; the oldest go first.
    static let kept = 16

    private var compiled: [String: Regex<AnyRegexOutput>] = [:]
    private var order: [String] = []

    private init() {}

    /// Makes `function` a function of `connection`, for as long as it is open.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let regex = LibraryRegex()
        try connection.createPredicate(function, arguments: 3) { arguments in
            guard let pattern = arguments[0], let text = arguments[2],
                  let expression = regex.expression(pattern, foldCase: arguments[1] == "1") else { return false }
            return text.contains(expression)
        }
    }

    /// The compiled form of `pattern`; nil if it is none (a filter's pattern was checked when
    /// read, so that is only a pattern SQL was given by mistake).
    private func expression(_ pattern: String, foldCase: Bool) -> Regex<AnyRegexOutput>? {
        let key = (foldCase ? "i:" : "c:") + pattern
        if let known = compiled[key] { return known }
        guard let made = try? Self.compile(pattern, foldCase: foldCase) else { return nil }
        if order.count >= Self.kept { compiled[order.removeFirst()] = nil }
        order.append(key)
        compiled[key] = made
        return made
    }

    /// `pattern` compiled, or the compiler's complaint: also how a filter's pattern is checked.
    package static func compile(_ pattern: String, foldCase: Bool) throws -> Regex<AnyRegexOutput> {
        let regex = try Regex(pattern)
        return foldCase ? regex.ignoresCase() : regex
    }
}
