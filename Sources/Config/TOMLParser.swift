/// Parses the TOML a configuration file needs: tables, arrays of tables, dotted keys, basic and
/// literal strings, integers, floats, booleans, arrays (over several lines too) and inline tables.
///
/// Written here rather than taken from a library so that every value keeps its line number — a
/// config error must name the line — and so that the parser is small enough to fuzz. Anything
/// outside that subset (multi-line strings, dates) is refused with the line it is on.
package struct TOMLParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var root = TOMLTable()
    /// Headers written explicitly with `[…]`: defining one twice is an error.
    private var definedTables: Set<[String]> = []

    package static func parse(_ text: String) throws(ConfigError) -> TOMLTable {
        var parser = TOMLParser(bytes: Array(text.utf8))
        return try parser.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Document

    private mutating func document() throws(ConfigError) -> TOMLTable {
        var current: [String] = []
        while true {
            skipBlank(newlines: true)
            guard let byte = peek else { return root }
            if byte == UInt8(ascii: "[") {
                current = try header()
            } else {
                let keyLine = line
                let path = try key()
                skipBlank(newlines: false)
                try expect("=")
                skipBlank(newlines: false)
                let value = try value()
                try define(current + path.dropLast(), path.last!, value, line: keyLine)
            }
            try endOfLine()
        }
    }

    /// `[a.b]` or `[[a.b]]`: makes the table (or appends one to the array) and returns its path.
    private mutating func header() throws(ConfigError) -> [String] {
        let headerLine = line
        index += 1
        let isArray = peek == UInt8(ascii: "[")
        if isArray { index += 1 }
        skipBlank(newlines: false)
        let path = try key()
        skipBlank(newlines: false)
        try expect("]")
        if isArray { try expect("]") }
        if isArray {
            try root.appendTable(at: path, line: headerLine)
        } else {
            guard definedTables.insert(path).inserted else {
                throw ConfigError(line: headerLine, "table [\(path.joined(separator: "."))] is defined twice")
            }
            try root.makeTable(at: path, line: headerLine)
        }
        return path
    }

    private mutating func define(_ path: [String], _ key: String, _ value: TOMLValue, line keyLine: Int) throws(ConfigError) {
        try root.makeTable(at: path, line: keyLine)
        guard root.define(key, value, at: path) else {
            throw ConfigError(line: keyLine, key: (path + [key]).joined(separator: "."), "is defined twice")
        }
    }

    // MARK: Keys

    /// A key, dotted or not: `a`, `"a b"`, `a.b`.
    private mutating func key() throws(ConfigError) -> [String] {
        var parts: [String] = []
        repeat {
            skipBlank(newlines: false)
            switch peek {
            case UInt8(ascii: "\"")?: parts.append(try basicString())
            case UInt8(ascii: "'")?: parts.append(try literalString())
            default:
                let start = index
                while let byte = peek, Self.isBareKey(byte) { index += 1 }
                guard index > start else { throw ConfigError(line: line, "expected a key") }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            skipBlank(newlines: false)
        } while consume(".")
        return parts
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    // MARK: Values

    private mutating func value() throws(ConfigError) -> TOMLValue {
        let valueLine = line
        switch peek {
        case UInt8(ascii: "\"")?:
            if matches("\"\"\"") { throw ConfigError(line: line, "multi-line strings are not supported") }
            return .string(try basicString(), line: valueLine)
        case UInt8(ascii: "'")?:
            if matches("'''") { throw ConfigError(line: line, "multi-line strings are not supported") }
            return .string(try literalString(), line: valueLine)
        case UInt8(ascii: "[")?: return try array()
        case UInt8(ascii: "{")?: return try inlineTable()
        case nil: throw ConfigError(line: line, "expected a value")
        default: return try scalar()
        }
    }

    private mutating func array() throws(ConfigError) -> TOMLValue {
        let arrayLine = line
        index += 1
        var items: [TOMLValue] = []
        while true {
            skipBlank(newlines: true)
            if consume("]") { return .array(items, line: arrayLine) }
            items.append(try value())
            skipBlank(newlines: true)
            if consume(",") { continue }
            skipBlank(newlines: true)
            try expect("]")
            return .array(items, line: arrayLine)
        }
    }

    private mutating func inlineTable() throws(ConfigError) -> TOMLValue {
        let tableLine = line
        index += 1
        var table = TOMLTable()
        skipBlank(newlines: false)
        if consume("}") { return .table(table, line: tableLine) }
        while true {
            skipBlank(newlines: false)
            let keyLine = line
            let path = try key()
            try expect("=")
            skipBlank(newlines: false)
            let item = try value()
            try table.makeTable(at: Array(path.dropLast()), line: keyLine)
            guard table.define(path.last!, item, at: Array(path.dropLast())) else {
                throw ConfigError(line: keyLine, key: path.joined(separator: "."), "is defined twice")
            }
            skipBlank(newlines: false)
            if consume(",") { continue }
            try expect("}")
            return .table(table, line: tableLine)
        }
    }

    /// Integers, floats, booleans: a run of value characters.
    private mutating func scalar() throws(ConfigError) -> TOMLValue {
        let start = index
        while let byte = peek, !Self.endsScalar(byte) { index += 1 }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        switch word {
        case "true": return .boolean(true, line: line)
        case "false": return .boolean(false, line: line)
        default: break
        }
        let digits = word.replacing("_", with: "")
        if digits.hasPrefix("0x"), let value = Int64(digits.dropFirst(2), radix: 16) { return .integer(value, line: line) }
        if let value = Int64(digits) { return .integer(value, line: line) }
        if let value = Double(digits), digits.contains(where: { ".eE".contains($0) }) { return .float(value, line: line) }
        if word.isEmpty { throw ConfigError(line: line, "expected a value") }
        throw ConfigError(line: line, "'\(word.prefix(40))' is not a value (strings need quotes)")
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: " "),
         UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(byte)
    }

    private mutating func basicString() throws(ConfigError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll()
        }
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\n"):
                throw ConfigError(line: line, "a string is not closed on its line")
            case UInt8(ascii: "\\"):
                flush()
                guard let escape = peek else { break }
                index += 1
                switch escape {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let count = escape == UInt8(ascii: "u") ? 4 : 8
                    guard index + count <= bytes.count,
                          let code = UInt32(String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code) else {
                        throw ConfigError(line: line, "bad \\u escape in a string")
                    }
                    index += count
                    scalars.append(scalar)
                default:
                    throw ConfigError(line: line, "unknown escape \\\(Character(Unicode.Scalar(escape))) in a string")
                }
            default:
                run.append(byte)
            }
        }
        throw ConfigError(line: line, "a string is not closed")
    }

    private mutating func literalString() throws(ConfigError) -> String {
        index += 1
        let start = index
        while let byte = peek, byte != UInt8(ascii: "'") {
            guard byte != UInt8(ascii: "\n") else { throw ConfigError(line: line, "a string is not closed on its line") }
            index += 1
        }
        guard peek != nil else { throw ConfigError(line: line, "a string is not closed") }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return text
    }

    // MARK: Scanning

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func matches(_ text: String) -> Bool {
        let pattern = Array(text.utf8)
        return index + pattern.count <= bytes.count && Array(bytes[index..<(index + pattern.count)]) == pattern
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(ConfigError) {
        guard consume(character) else {
            let found = peek.map { $0 == UInt8(ascii: "\n") ? "the end of the line" : "'\(Character(Unicode.Scalar($0)))'" } ?? "the end of the file"
            throw ConfigError(line: line, "expected '\(character)', found \(found)")
        }
    }

    /// Skips spaces, tabs and comments, and newlines too when `newlines`.
    private mutating func skipBlank(newlines: Bool) {
        while let byte = peek {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "#"):
                while let next = peek, next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\n") where newlines:
                index += 1
                line += 1
            default: return
            }
        }
    }

    /// After a key/value pair or a header, only a comment may follow on the line.
    private mutating func endOfLine() throws(ConfigError) {
        skipBlank(newlines: false)
        guard let byte = peek else { return }
        guard byte == UInt8(ascii: "\n") else {
            throw ConfigError(line: line, "unexpected '\(Character(Unicode.Scalar(byte)))' after a value")
        }
    }
}

extension TOMLTable {
    /// Walks `path`, entering the last table of any array of tables on the way, creating missing
    /// tables, and runs `body` on the table at its end.
    fileprivate mutating func withTable<T>(at path: ArraySlice<String>, line: Int,
                                           _ body: (inout TOMLTable) throws(ConfigError) -> T) throws(ConfigError) -> T {
        guard let first = path.first else { return try body(&self) }
        switch self[first] {
        case nil:
            var child = TOMLTable()
            let result = try child.withTable(at: path.dropFirst(), line: line, body)
            _ = define(first, .table(child, line: line))
            return result
        case .table(var child, let childLine)?:
            let result = try child.withTable(at: path.dropFirst(), line: line, body)
            replace(first, .table(child, line: childLine))
            return result
        case .array(var items, let arrayLine)?:
            guard case .table(var child, let childLine)? = items.last else {
                throw ConfigError(line: line, key: first, "is an array (line \(arrayLine)), not a table")
            }
            let result = try child.withTable(at: path.dropFirst(), line: line, body)
            items[items.count - 1] = .table(child, line: childLine)
            replace(first, .array(items, line: arrayLine))
            return result
        case let other?:
            throw ConfigError(line: line, key: first, "is \(other.kind) (line \(other.line)), not a table")
        }
    }

    fileprivate mutating func makeTable(at path: [String], line: Int) throws(ConfigError) {
        try withTable(at: path[...], line: line) { _ in }
    }

    fileprivate mutating func define(_ key: String, _ value: TOMLValue, at path: [String]) -> Bool {
        (try? withTable(at: path[...], line: value.line) { table in table.define(key, value) }) ?? false
    }

    fileprivate mutating func appendTable(at path: [String], line: Int) throws(ConfigError) {
        try withTable(at: path.dropLast(), line: line) { (table: inout TOMLTable) throws(ConfigError) in
            let key = path.last!
            switch table[key] {
            case nil:
                _ = table.define(key, .array([.table(TOMLTable(), line: line)], line: line))
            case .array(var items, let arrayLine)? where items.allSatisfy({ if case .table = $0 { true } else { false } }):
                items.append(.table(TOMLTable(), line: line))
                table.replace(key, .array(items, line: arrayLine))
            case let other?:
                throw ConfigError(line: line, key: key, "is \(other.kind) (line \(other.line)), not an array of tables")
            }
        }
    }
}
