/// The reader's cursor: looking ahead, skipping, names, and errors that say where.
extension XMLReader {
    /// Whether `marker` (ASCII) comes next.
    func at(_ marker: StaticString) -> Bool {
        matches(marker, at: index)
    }

    func matches(_ marker: StaticString, at position: Int) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let start = marker.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
        return true
    }

    /// Where `marker` next starts, from the cursor on.
    func find(_ marker: StaticString) -> Int? {
        let first = marker.utf8Start[0]
        var from = index
        while let candidate = bytes[from...].firstIndex(of: first) {
            if matches(marker, at: candidate) { return candidate }
            from = candidate + 1
        }
        return nil
    }

    /// Skips white space; whether there was any.
    mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, XMLInput.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    /// The name at the cursor (`what` it names, for errors), and moves past it. Names are
    /// checked loosely — any non-ASCII character may stand in one — but never empty or long.
    mutating func nameRange(in what: String) throws -> Range<Int> {
        let start = index
        while index < bytes.count, Self.isInName(bytes[index]), index - start <= XMLRules.maxNameBytes { index += 1 }
        guard index > start, Self.mayStartName(bytes[start]) else { throw fail("\(what) without a name") }
        guard index - start <= XMLRules.maxNameBytes else { throw fail("\(what) whose name is longer than \(XMLRules.maxNameBytes) bytes") }
        return start..<index
    }

    mutating func name(in what: String) throws -> String {
        text(of: try nameRange(in: what))
    }

    func text(of range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// A name for an error message, cut short.
    func shown(_ range: Range<Int>) -> String {
        let text = text(of: range)
        return text.count > 40 ? text.prefix(40) + "…" : text
    }

    /// A well-formedness error at the cursor.
    func fail(_ reason: String) -> ParseError {
        rules.malformed(reason, line: XMLInput.line(of: index, in: bytes))
    }

    /// What the rules refuse, at the cursor.
    func refuse(_ what: String) -> ParseError {
        rules.refused(what, line: XMLInput.line(of: index, in: bytes))
    }

    /// Letters, digits, `_ : - .` and anything not ASCII.
    @inline(__always)
    static func isInName(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x5F, 0x3A, 0x2D, 0x2E, 0x80...: true
        default: false
        }
    }

    /// Digits, `-` and `.` may not start a name.
    @inline(__always)
    static func mayStartName(_ byte: UInt8) -> Bool {
        !(0x30...0x39).contains(byte) && byte != 0x2D && byte != 0x2E
    }
}
