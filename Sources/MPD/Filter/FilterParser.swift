import Library

/// MPD's filter expressions (protocol documentation, "Filters"), read into the library's
/// `TagFilter`:
///
///     (TAG == 'VALUE')  (TAG != 'VALUE')  (TAG contains 'VALUE')  (TAG starts_with 'VALUE')
///     (TAG =~ 'REGEX')  (TAG !~ 'REGEX')
///     (file == 'URI')   (base 'DIR')      (!EXPRESSION)            (EXPR1 AND EXPR2 ...)
///
/// A value is quoted with `"` or `'`; inside, a backslash makes the next character literal (the
/// client escaped the quote and the backslash). This is the argument as the command line's own
/// quoting already gave it. `foldCase`: `search`'s comparisons (case-insensitive), else `find`'s.
/// Song and folder URIs (`file`, `base`) become library locations through `paths`.
package struct FilterParser {
    private let text: [Character]
    private var index = 0
    private let foldCase: Bool
    private let paths: any SongPathMapping

    private init(_ text: String, foldCase: Bool, paths: any SongPathMapping) {
        self.text = Array(text)
        self.foldCase = foldCase
        self.paths = paths
    }

    /// One whole expression; anything after its closing parenthesis is an error.
    package static func parse(_ text: String, foldCase: Bool, paths: any SongPathMapping) throws(FilterError) -> TagFilter {
        var parser = FilterParser(text, foldCase: foldCase, paths: paths)
        let filter = try parser.expression(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.text.count else { throw FilterError("Unparsed garbage after expression") }
        return filter
    }

    /// Nesting deeper than this is refused: a client's `((((...` never exhausts the stack.
    static let maxDepth = 32

    private mutating func expression(depth: Int) throws(FilterError) -> TagFilter {
        guard depth < Self.maxDepth else { throw FilterError("Filter expression nested too deeply") }
        skipSpace()
        guard take("(") else { throw FilterError("'(' expected") }
        skipSpace()
        if take("!") {
            let inner = try expression(depth: depth + 1)
            try close()
            return .not(inner)
        }
        if peek == "(" {
            var parts = [try expression(depth: depth + 1)]
            skipSpace()
            while !take(")") {
                guard word() == "AND" else { throw FilterError("'AND' expected") }
                parts.append(try expression(depth: depth + 1))
                skipSpace()
            }
            return parts.count == 1 ? parts[0] : .and(parts)
        }
        let name = word()
        guard !name.isEmpty else { throw FilterError("Tag name expected") }
        skipSpace()
        if name == "base" {
            let folder = try value()
            try close()
            // The root of everything: every track.
            if folder.isEmpty || folder == "/" { return .and([]) }
            guard let location = paths.folderLocation(ofPath: folder) else { throw FilterError("No such directory") }
            return .base(location)
        }
        if ["modified-since", "added-since", "AudioFormat", "prio"].contains(name) {
            throw FilterError("Unsupported filter: \(name)")
        }
        guard let tag = TrackTag(mpdName: name) else { throw FilterError("Unknown filter type: \(name)") }
        let match = try operation()
        var compared = try value()
        try close()
        if tag == .file {
            switch match {
            case .equal, .notEqual, .startsWith:
                // A URI that names no library location stays as it is (an http URL).
                compared = paths.location(ofPath: compared) ?? compared
            case .contains:
                compared = paths.locationSpelling(ofPart: compared)
            case .matches, .notMatches:
                throw FilterError("Regular expressions do not compare file here: use contains or starts_with")
            }
        }
        if match == .matches || match == .notMatches {
            do {
                try LibraryRegex.check(compared, foldCase: foldCase)
            } catch {
                throw FilterError("Invalid regular expression: \(error)")
            }
        }
        return .tag(tag, match, compared, foldCase: foldCase && (tag != .file || match == .contains))
    }

    private mutating func operation() throws(FilterError) -> TagMatch {
        if take("==") { return .equal }
        if take("!=") { return .notEqual }
        if take("=~") { return .matches }
        if take("!~") { return .notMatches }
        switch word() {
        case "contains": return .contains
        case "starts_with": return .startsWith
        case "": throw FilterError("Operator expected")
        case let other: throw FilterError("Unknown filter operator: \(other)")
        }
    }

    /// A quoted value, its backslash escapes undone.
    private mutating func value() throws(FilterError) -> String {
        skipSpace()
        guard let quote = peek, quote == "\"" || quote == "'" else { throw FilterError("Quoted string expected") }
        index += 1
        var result = ""
        while index < text.count {
            var character = text[index]
            index += 1
            if character == quote {
                skipSpace()
                return result
            }
            if character == "\\" {
                guard index < text.count else { break }
                character = text[index]
                index += 1
            }
            result.append(character)
        }
        throw FilterError("Closing quote not found")
    }

    private mutating func close() throws(FilterError) {
        skipSpace()
        guard take(")") else { throw FilterError("')' expected") }
    }

    /// A tag or operator name: letters, digits, `_` and `-`.
    private mutating func word() -> String {
        skipSpace()
        var word = ""
        while let character = peek, character.isLetter || character.isNumber || character == "_" || character == "-" {
            word.append(character)
            index += 1
        }
        return word
    }

    private var peek: Character? { index < text.count ? text[index] : nil }

    private mutating func take(_ literal: String) -> Bool {
        let characters = Array(literal)
        guard index + characters.count <= text.count, Array(text[index..<index + characters.count]) == characters else { return false }
        index += characters.count
        return true
    }

    private mutating func skipSpace() {
        while let character = peek, character == " " || character == "\t" { index += 1 }
    }
}
