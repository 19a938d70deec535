import CPCRE2
import SQLite

/// MPD's `=~` and `!~` in SQL: `regex_matches(pattern, foldCase, text)` is 1 where the regular
/// expression finds a match anywhere in the text, 0 elsewhere — and for NULL text, a track
/// without the tag, which MPD 0.23 finds with no expression, not even `^$`.
///
/// Matched by PCRE2, the library MPD matches with, compiled as MPD compiles them (unanchored,
/// `.` matching newlines too, no captures, caseless for `search`), in UTF mode besides, so that
/// `.` is a character and case folds beyond ASCII as `search`'s other comparisons do; JIT-compiled
/// where the machine allows. Each pattern is compiled once and kept (a few: a query uses one or
/// two), used only on the connection's thread. PCRE2 is wrapped here, once.
package final class LibraryRegex {
    static let function = "regex_matches"
    /// Patterns kept compiled at most; the oldest go first.
    static let kept = 16

    private var compiled: [[UInt8]: Pattern] = [:]
    private var order: [[UInt8]] = []
    /// The pattern the last row was matched with (every row of a query asks for the same one):
    /// found by comparing bytes, without making a key.
    private var last: (key: [UInt8], pattern: Pattern)?

    private init() {}

    /// Makes `function` a function of `connection`, for as long as it is open.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let regex = LibraryRegex()
        try connection.createPredicate(function, arguments: 3) { arguments in
            guard let pattern = arguments[0], let fold = arguments[1], let text = arguments[2],
                  let compiled = regex.pattern(pattern, foldCase: fold.first == UInt8(ascii: "1")) else { return false }
            return compiled.matches(text)
        }
    }

    /// `pattern` compiled, or nil if it does not compile (a filter's pattern was checked when read).
    private func pattern(_ pattern: UnsafeBufferPointer<UInt8>, foldCase: Bool) -> Pattern? {
        if let last, last.key.first == (foldCase ? 1 : 0), last.key.dropFirst().elementsEqual(pattern) { return last.pattern }
        let key = [foldCase ? 1 : 0] + Array(pattern)
        let found: Pattern
        if let known = compiled[key] {
            found = known
        } else {
            guard let made = try? Pattern(Array(pattern), foldCase: foldCase) else { return nil }
            if order.count >= Self.kept { compiled[order.removeFirst()] = nil }
            order.append(key)
            compiled[key] = made
            found = made
        }
        last = (key, found)
        return found
    }

    /// Whether `pattern` compiles; if not, PCRE2's reason and where ("missing closing
    /// parenthesis at 2"). How a filter's pattern is checked when it is read.
    package static func check(_ pattern: String, foldCase: Bool) throws(RegexError) {
        _ = try Pattern(Array(pattern.utf8), foldCase: foldCase)
    }

    /// Why a pattern does not compile.
    package struct RegexError: Error, CustomStringConvertible {
        package var description: String
    }

    /// A compiled pattern and the match data its matches use.
    private final class Pattern {
        private let code: OpaquePointer
        private let matchData: OpaquePointer

        init(_ pattern: [UInt8], foldCase: Bool) throws(RegexError) {
            let options = UInt32(PCRE2_DOTALL | PCRE2_NO_AUTO_CAPTURE | PCRE2_UTF) | (foldCase ? UInt32(PCRE2_CASELESS) : 0)
            var errorCode: Int32 = 0
            var errorOffset = 0
            // Zero-terminated as well: an empty pattern still has an address.
            guard let code = (pattern + [0]).withUnsafeBufferPointer({ bytes in
                pcre2_compile_8(bytes.baseAddress, bytes.count - 1, options, &errorCode, &errorOffset, nil)
            }) else {
                var message = [UInt8](repeating: 0, count: 256)
                let length = pcre2_get_error_message_8(errorCode, &message, message.count)
                throw RegexError(description: String(decoding: message.prefix(max(0, Int(length))), as: UTF8.self) + " at \(errorOffset)")
            }
            guard let matchData = pcre2_match_data_create_from_pattern_8(code, nil) else {
                pcre2_code_free_8(code)
                throw RegexError(description: "out of memory")
            }
            // Faster where the machine allows; without it (no JIT on this machine) the interpreter matches.
            _ = pcre2_jit_compile_8(code, UInt32(PCRE2_JIT_COMPLETE))
            self.code = code
            self.matchData = matchData
        }

        deinit {
            pcre2_match_data_free_8(matchData)
            pcre2_code_free_8(code)
        }

        /// Whether the pattern matches somewhere in `text` (UTF-8; text that is not never matches).
        func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let start = text.baseAddress else {
                return [UInt8(0)].withUnsafeBufferPointer { pcre2_match_8(code, $0.baseAddress, 0, 0, 0, matchData, nil) >= 0 }
            }
            return pcre2_match_8(code, start, text.count, 0, 0, matchData, nil) >= 0
        }
    }
}
