import SQLite

/// The order `ls` lists artists in, as a reader expects a list of names: letters compared
/// without case and accents first ("Édith" between "Eagles" and "Elvis"), then as they are, so
/// that the order is total. (It was Foundation's localized compare, which is ICU's; without ICU,
/// each letter's folded form is asked once of SQLite's own Unicode tables — the tokenizer that
/// folds the search index — and kept.)
final class LibraryCollation {
    static let name = "library_name"

    private unowned let connection: SQLiteConnection
    /// Each non-ASCII letter's folded form, as the tokenizer gave it.
    private var folded: [Unicode.Scalar: [Unicode.Scalar]] = [:]

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Makes `name` a collation of `connection`, for as long as it is open.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let collation = LibraryCollation(connection: connection)
        // The tokenizer made now, not while SQLite sorts.
        _ = try connection.tokens(of: "", tokenizer: LibrarySchema.searchTokenizer)
        try connection.createCollation(name) { collation.compare($0, $1) }
    }

    private func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int32 {
        let folding: Int32
        if left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) {
            folding = Self.order(left.lazy.map(Self.lowercase), right.lazy.map(Self.lowercase))
        } else {
            folding = Self.order(fold(left).lazy.map(\.value), fold(right).lazy.map(\.value))
        }
        return folding != 0 ? folding : Self.order(left, right)
    }

    private func fold(_ text: UnsafeRawBufferPointer) -> [Unicode.Scalar] {
        String(decoding: text, as: UTF8.self).unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
            if scalar.isASCII { return [Unicode.Scalar(Self.lowercase(UInt8(scalar.value)))] }
            if let known = folded[scalar] { return known }
            // A letter comes back lowercased and without its accents; a mark on its own comes
            // back empty; punctuation and symbols, which are no words, stay as they are.
            let tokens = (try? connection.tokens(of: String(scalar), tokenizer: LibrarySchema.searchTokenizer)) ?? []
            let form = tokens.first.map { Array($0.unicodeScalars) } ?? Array(scalar.properties.lowercaseMapping.unicodeScalars)
            folded[scalar] = form
            return form
        }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Lexicographic order of two sequences, as `strcmp` answers.
    private static func order<Left: Sequence, Right: Sequence>(_ left: Left, _ right: Right) -> Int32
    where Left.Element: Comparable, Left.Element == Right.Element {
        var rightElements = right.makeIterator()
        for element in left {
            guard let other = rightElements.next() else { return 1 }
            if element != other { return element < other ? -1 : 1 }
        }
        return rightElements.next() == nil ? 0 : -1
    }
}
