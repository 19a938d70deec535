/// Character data, references, CDATA sections, comments and instructions: what lies between
/// tags, and attribute values. Line ends are normalised (`\r\n` and `\r` read as `\n`, XML 1.0
/// §2.11), and in attribute values white space reads as a space (§3.3.3).
extension XMLReader {
    /// The text up to the next tag, comments and instructions left out; nil if there was none.
    mutating func text() throws -> String? {
        buffer.removeAll(keepingCapacity: true)
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                if at("<![CDATA[") {
                    try cdata()
                } else if at("<!--") {
                    try skipComment()
                } else if at("<?") {
                    try skipInstruction()
                } else if at("<!") {
                    throw fail("markup <! that is neither a comment nor CDATA")
                } else {
                    return finishedText()
                }
            case UInt8(ascii: "&"):
                try reference()
            case UInt8(ascii: "\r"):
                newline()
            case UInt8(ascii: "]") where at("]]>"):
                throw fail("]]> outside a CDATA section")
            default:
                let start = index
                index += 1
                while index < bytes.count, !Self.stopsText(bytes[index]) { index += 1 }
                buffer.append(contentsOf: bytes[start..<index])
            }
        }
        return finishedText()
    }

    private func finishedText() -> String? {
        buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
    }

    /// A quoted attribute value, references replaced, `<` refused.
    mutating func attributeValue() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw fail("an attribute value without quotes")
        }
        let quote = bytes[index]
        index += 1
        buffer.removeAll(keepingCapacity: true)
        while index < bytes.count {
            switch bytes[index] {
            case quote:
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw fail("< in an attribute value")
            case UInt8(ascii: "&"):
                try reference()
            case UInt8(ascii: "\r"):
                newline()
                buffer[buffer.count - 1] = 0x20
            case 0x0A, 0x09:
                buffer.append(0x20)
                index += 1
            default:
                let start = index
                index += 1
                while index < bytes.count, !Self.stopsValue(bytes[index]), bytes[index] != quote { index += 1 }
                buffer.append(contentsOf: bytes[start..<index])
            }
        }
        throw fail("an attribute value that does not end")
    }

    /// `\r\n` or `\r` as one `\n`.
    private mutating func newline() {
        index += 1
        if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        buffer.append(0x0A)
    }

    /// `&#…;`, `&#x…;` or one of the five predefined entities, into the buffer. Any other entity
    /// is refused — or, where an external DTD (never read) might declare it, kept as written.
    private mutating func reference() throws {
        let start = index
        index += 1
        if at("#") {
            index += 1
            let hex = at("x")
            if hex { index += 1 }
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.count, let digit = Self.digit(bytes[index], hex: hex) {
                value = value * (hex ? 16 : 10) + digit
                guard value <= 0x10FFFF else { throw fail("a character reference beyond Unicode") }
                digits += 1
                index += 1
            }
            guard digits > 0, at(";") else { throw fail("a character reference that is not one") }
            index += 1
            guard Self.isCharacter(value), let scalar = Unicode.Scalar(value) else {
                throw fail("a reference to a character XML does not allow (\(value))")
            }
            buffer.append(contentsOf: UTF8.encode(scalar)!)
            return
        }
        let name = try nameRange(in: "a reference")
        guard at(";") else { throw fail("a & that starts no reference (write &amp;)") }
        index += 1
        switch text(of: name) {
        case "lt": buffer.append(UInt8(ascii: "<"))
        case "gt": buffer.append(UInt8(ascii: ">"))
        case "amp": buffer.append(UInt8(ascii: "&"))
        case "apos": buffer.append(UInt8(ascii: "'"))
        case "quot": buffer.append(UInt8(ascii: "\""))
        case let other:
            guard externalSubset else { throw fail("the entity &\(other); that nothing declares") }
            buffer.append(contentsOf: bytes[start..<index])
        }
    }

    private mutating func cdata() throws {
        index += 9
        guard let end = find("]]>") else { throw fail("a CDATA section that does not end") }
        while index < end {
            if bytes[index] == UInt8(ascii: "\r") {
                newline()
            } else {
                let start = index
                while index < end, bytes[index] != UInt8(ascii: "\r") { index += 1 }
                buffer.append(contentsOf: bytes[start..<index])
            }
        }
        index = end + 3
    }

    mutating func skipComment() throws {
        index += 4
        guard let end = find("-->") else { throw fail("a comment that does not end") }
        index = end + 3
    }

    /// `<?target …?>`: refused unless the rules allow instructions; `xml` as a target is the
    /// declaration, which only stands first.
    mutating func skipInstruction() throws {
        index += 2
        let target = try name(in: "a processing instruction")
        guard target.lowercased() != "xml" else { throw fail("an XML declaration that is not at the start") }
        guard rules.instructions else { throw refuse("a processing instruction") }
        guard let end = find("?>") else { throw fail("a processing instruction that does not end") }
        index = end + 2
    }

    // MARK: Characters

    /// Bytes that end a run of plain text: `<`, `&`, `\r`, `]`.
    @inline(__always)
    private static func stopsText(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x3C, 0x26, 0x0D, 0x5D: true
        default: false
        }
    }

    /// Bytes that end a run of an attribute value (besides its quote): `<`, `&`, white space.
    @inline(__always)
    private static func stopsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x3C, 0x26, 0x0D, 0x0A, 0x09: true
        default: false
        }
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// XML 1.0's `Char`.
    private static func isCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
