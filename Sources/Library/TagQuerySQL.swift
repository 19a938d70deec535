import SQLite

/// A `TagFilter` as an SQL condition over the track table, with its arguments, written so that
/// SQLite answers it from an index: exact matches from the tag's index, substrings from the
/// trigram index `trackText` (then checked on the row where case matters), a folder from
/// `track_browse`'s range.
package struct TagQuerySQL {
    private(set) var arguments: [any SQLiteConvertible] = []

    package init() {}

    /// The condition for `filter`, its arguments appended to `arguments`.
    mutating func condition(_ filter: TagFilter) -> String {
        switch filter {
        case .and(let parts):
            guard !parts.isEmpty else { return "1" }
            return "(" + parts.map { condition($0) }.joined(separator: " AND ") + ")"
        case .not(let inner):
            // A comparison with a tag a track lacks is NULL, not false: NOT of it would leave the
            // track out, where MPD (a comparison being false) finds it.
            return "NOT coalesce(" + condition(inner) + ", 0)"
        case .base(let folder):
            let range = Self.folderRange(folder)
            arguments += [range.itself, range.from, range.upTo]
            return "(folder = ? OR (folder >= ? AND folder < ?))"
        case .tag(let tag, let match, let value, let foldCase):
            return compare(tag, match, value, foldCase: foldCase)
        }
    }

    /// Whether `filter` is only a folder (`listall`, `add DIR`): read in order from `track_browse`.
    static func isFolder(_ filter: TagFilter) -> Bool {
        if case .base = filter { return true }
        return false
    }

    /// A folder's location without its last `/`, and the range of locations under it: the
    /// folder values starting with "F/" are those from "F/" up to "F0" ('0' follows '/').
    package static func folderRange(_ folder: String) -> (itself: String, from: String, upTo: String) {
        let bare = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return (bare, bare + "/", bare + "0")
    }

    private mutating func compare(_ tag: TrackTag, _ match: TagMatch, _ value: String, foldCase: Bool) -> String {
        // MPD's `any` is every tag, the date among them (`search any "2019"` finds 2019's songs):
        // the text tags or the date, a negation over both — for a value a date can hold (digits,
        // `-`); a word is looked for in the text tags alone, where the trigram index's answer is
        // the whole answer (`search any "gold"` reads no track row).
        if tag == .any, !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }) {
            let negated = match == .notEqual || match == .notMatches
            let positive: TagMatch = match == .notEqual ? .equal : match == .notMatches ? .matches : match
            let either = "(coalesce(\(compareColumns(.any, positive, value, foldCase: foldCase)), 0) OR "
                + "coalesce(\(compareColumns(.date, positive, value, foldCase: foldCase)), 0))"
            return negated ? "NOT \(either)" : either
        }
        return compareColumns(tag, match, value, foldCase: foldCase)
    }

    private mutating func compareColumns(_ tag: TrackTag, _ match: TagMatch, _ value: String, foldCase: Bool) -> String {
        let columns = tag.column.map { [$0] } ?? tag.textColumns
        // A number is compared as a number when the value is one (the index answers), else as text.
        let number = tag.isNumber ? Int(value) : nil
        let expression = { (column: String) in tag.isNumber && number == nil ? "CAST(\(column) AS TEXT)" : column }
        switch match {
        case .equal where value.isEmpty, .notEqual where value.isEmpty:
            // MPD: an empty value matches the tracks without the tag.
            let none = "(" + columns.map { "coalesce(\($0), '') = ''" }.joined(separator: " AND ") + ")"
            return match == .equal ? none : "NOT " + none
        case .equal, .notEqual:
            let per = columns.map { column -> String in
                if let number { arguments.append(number) } else { arguments.append(value) }
                return "\(expression(column)) = ?" + (foldCase && number == nil ? " COLLATE NOCASE" : "")
            }
            let any = "(" + per.joined(separator: " OR ") + ")"
            // `!=` is also true of a track without the tag: NOT over NULL would be NULL.
            return match == .equal ? any : "NOT coalesce(\(any), 0)"
        case .matches, .notMatches:
            // A plain word (`zebra cr`, `^The Quiet`) is in every match: the trigram index finds
            // the tracks that hold it, and the expression is tried on those alone.
            if let word = Self.plainWord(in: value, foldCase: foldCase), let prefilter = trigramPrefilter(tag, word) {
                let per = columns.map { column -> String in
                    arguments += [value, foldCase ? 1 : 0]
                    return "\(LibraryRegex.function)(?, ?, \(expression(column)))"
                }
                let any = "(" + prefilter + " AND (" + per.joined(separator: " OR ") + "))"
                return match == .matches ? any : "NOT coalesce(\(any), 0)"
            }
            // No index answers an expression; but each distinct value is tried once, read from
            // the tag's index (an artist's thousand tracks are one call), and the tracks with
            // the values that match are found through it. A track without the tag matches none:
            // its NULL is in no list (the condition is NULL, which `!~` and `.not` take as false).
            let per = columns.map { column -> String in
                arguments += [value, foldCase ? 1 : 0]
                return "\(column) IN (SELECT DISTINCT \(column) FROM track WHERE \(LibraryRegex.function)(?, ?, \(expression(column))))"
            }
            let any = "(" + per.joined(separator: " OR ") + ")"
            return match == .matches ? any : "NOT coalesce(\(any), 0)"
        case .contains, .startsWith:
            var parts: [String] = []
            if let prefilter = trigramPrefilter(tag, value) { parts.append(prefilter) }
            // Found by the trigram index and folded: that index's answer is the answer (it also
            // folds letters beyond ASCII, which LIKE does not).
            if foldCase, match == .contains, parts.count == 1 { return parts[0] }
            // Case folded: LIKE (ASCII letters fold; the trigram index folds the rest). Exact:
            // instr/substr, on the rows the index found.
            let per = columns.map { column -> String in
                let pattern = Self.escapeLike(value)
                switch (match, foldCase) {
                case (.contains, true):
                    arguments.append("%\(pattern)%")
                    return "\(expression(column)) LIKE ? ESCAPE '\\'"
                case (.contains, false):
                    arguments.append(value)
                    return "instr(\(expression(column)), ?) > 0"
                case (_, true):
                    arguments.append("\(pattern)%")
                    return "\(expression(column)) LIKE ? ESCAPE '\\'"
                case (_, false):
                    arguments += [value.count, value]
                    return "substr(\(expression(column)), 1, ?) = ?"
                }
            }
            parts.append("(" + per.joined(separator: " OR ") + ")")
            return "(" + parts.joined(separator: " AND ") + ")"
        }
    }

    /// The tracks whose tags hold `value` (case folded), from the trigram index: only for a
    /// value of three characters or more (the index has no shorter pieces), in text tags.
    private mutating func trigramPrefilter(_ tag: TrackTag, _ value: String) -> String? {
        let columns = tag.textColumns
        guard !columns.isEmpty, value.unicodeScalars.count >= 3 else { return nil }
        arguments.append("{\(columns.joined(separator: " "))} : \"\(value.replacing("\"", with: "\"\""))\"")
        return "id IN (\(Self.trigramMatch))"
    }

    private static let trigramMatch = "SELECT rowid FROM trackText WHERE trackText MATCH ?"

    /// A query of the ids of the tracks `filter` finds, in no order, gone ones too: the trigram
    /// index's own answer when it answers the filter alone (`search any "gold"`: no track row
    /// read), else the track table's.
    package mutating func ids(_ filter: TagFilter) -> String {
        let condition = condition(filter)
        return condition == "id IN (\(Self.trigramMatch))" ? Self.trigramMatch : "SELECT id FROM track WHERE \(condition)"
    }

    /// The word every match of `pattern` holds, when the pattern is nothing else — no character
    /// PCRE2 reads as an operator, at most `^` before it and `$` after — and the trigram index
    /// finds every text PCRE2 would match it in: it folds case as PCRE2 does for ASCII letters but
    /// K and S, whose caseless matches include the Kelvin sign and the long s; beyond ASCII the
    /// two need not agree, so a caseless pattern with such letters is left to the expression.
    /// Case kept, a text holding the word holds its folded form too. Nil for any other pattern.
    package static func plainWord(in pattern: String, foldCase: Bool) -> String? {
        var word = Substring(pattern)
        if word.hasPrefix("^") { word = word.dropFirst() }
        if word.hasSuffix("$") { word = word.dropLast() }
        let operators = Set("\\^$.|?*+()[]{}".unicodeScalars)
        guard word.unicodeScalars.count >= 3, !word.unicodeScalars.contains(where: operators.contains) else { return nil }
        if foldCase, !word.unicodeScalars.allSatisfy({ $0.isASCII && !"kKsS".unicodeScalars.contains($0) }) { return nil }
        return String(word)
    }

    static func escapeLike(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
    }
}
