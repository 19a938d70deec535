/// The modules a Swift file imports, read as the compiler would: an `import` inside a comment or a
/// string literal (a Python script the tests run, say) is not one.
struct SwiftImports {
    struct Import: Equatable {
        var module: String
        var line: Int
    }

    let imports: [Import]

    init(source: String) {
        imports = Self.code(of: source).split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            Self.module(importedBy: line).map { Import(module: $0, line: index + 1) }
        }
    }

    /// `[@attribute…] [access] import [kind] Module[.Sub]` → Module.
    static func module(importedBy line: Substring) -> String? {
        var words = line.split(whereSeparator: \.isWhitespace)[...]
        while let word = words.first, word.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(word) {
            words = words.dropFirst()
        }
        guard words.first == "import", var module = words.dropFirst().first else { return nil }
        if ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"].contains(module),
           let declared = words.dropFirst(2).first {
            module = declared
        }
        return String(module.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The text with every comment and string literal blanked out (line breaks kept, so lines
    /// keep their numbers).
    static func code(of source: String) -> String {
        var scanner = Scanner(Array(source.utf8))
        scanner.code(until: nil)
        return String(decoding: scanner.output, as: UTF8.self)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        func starts(with text: String) -> Bool {
            var at = index
            for byte in text.utf8 {
                guard at < bytes.count, bytes[at] == byte else { return false }
                at += 1
            }
            return true
        }

        /// Copies code through, blanking comments and strings, up to the closing `)` of an
        /// interpolation (or the end).
        mutating func code(until closing: UInt8?) {
            var depth = 0
            while let byte = peek() {
                if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                    while let next = peek(), next != UInt8(ascii: "\n") { blank(next) }
                } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    comment()
                } else if byte == UInt8(ascii: "#"), let hashes = rawStringStart() {
                    string(hashes: hashes)
                } else if byte == UInt8(ascii: "\"") {
                    string(hashes: 0)
                } else {
                    if byte == UInt8(ascii: "(") { depth += 1 }
                    if byte == UInt8(ascii: ")") {
                        if depth == 0, closing != nil { return }
                        depth -= 1
                    }
                    output.append(byte)
                    index += 1
                }
            }
        }

        /// `#…#"`: the number of `#`s of a raw string starting here.
        func rawStringStart() -> Int? {
            var count = 0
            while peek(count) == UInt8(ascii: "#") { count += 1 }
            return count > 0 && peek(count) == UInt8(ascii: "\"") ? count : nil
        }

        mutating func blank(_ byte: UInt8) {
            output.append(byte == UInt8(ascii: "\n") ? byte : UInt8(ascii: " "))
            index += 1
        }

        /// A block comment; they nest in Swift.
        mutating func comment() {
            var depth = 0
            while let byte = peek() {
                if byte == UInt8(ascii: "/"), starts(with: "/*") {
                    depth += 1
                    blank(byte)
                    blank(UInt8(ascii: "*"))
                } else if byte == UInt8(ascii: "*"), starts(with: "*/") {
                    depth -= 1
                    blank(byte)
                    blank(UInt8(ascii: "/"))
                    if depth == 0 { return }
                } else {
                    blank(byte)
                }
            }
        }

        /// A string literal, single- or multi-line, raw or not; `\(…)` in it is code again.
        mutating func string(hashes: Int) {
            for _ in 0..<hashes { blank(UInt8(ascii: "#")) }
            let quotes = starts(with: "\"\"\"") ? 3 : 1
            for _ in 0..<quotes { blank(UInt8(ascii: "\"")) }
            let terminator = String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            while let byte = peek() {
                if byte == UInt8(ascii: "\""), starts(with: terminator) {
                    for _ in 0..<terminator.utf8.count { blank(UInt8(ascii: "\"")) }
                    return
                } else if byte == UInt8(ascii: "\\"), starts(with: escape + "(") {
                    for _ in 0...escape.utf8.count { blank(UInt8(ascii: " ")) }
                    code(until: UInt8(ascii: ")"))
                    if peek() != nil { blank(UInt8(ascii: ")")) }
                } else if byte == UInt8(ascii: "\\"), starts(with: escape) {
                    for _ in 0..<escape.utf8.count { blank(UInt8(ascii: "\\")) }
                    if let escaped = peek() { blank(escaped) }
                } else {
                    blank(byte)
                }
            }
        }
    }
}
