/// A document's bytes made ready for `XMLReader`: UTF-8 that is checked once, up front, so the
/// reader never meets a byte sequence or control character XML does not allow. Reads the byte
/// order mark (UTF-8, or UTF-16 either way round, transcoded) and the XML declaration, and
/// converts a declared ISO-8859-1 or windows-1252 document where the rules allow it.
struct XMLInput {
    /// UTF-8, valid and made of XML characters only.
    var bytes: [UInt8]
    /// Where the content starts: after the byte order mark, white space and the declaration.
    var start: Int

    init(_ input: [UInt8], rules: XMLRules) throws {
        guard input.count <= XMLRules.maxBytes else {
            throw ParseError.unsupported("\(rules.kind) larger than \(XMLRules.maxBytes) bytes")
        }
        var bytes = input
        var start = 0
        let marked: Bool
        if input.starts(with: [0xEF, 0xBB, 0xBF]) {
            start = 3
            marked = true
        } else if input.starts(with: [0xFE, 0xFF]) || input.starts(with: [0xFF, 0xFE]) {
            bytes = try Self.utf16ToUTF8(input, bigEndian: input[0] == 0xFE, rules: rules)
            marked = true
        } else {
            marked = false
        }
        // White space before the declaration, which XML forbids and some servers send, is let by.
        while start < bytes.count, XMLInput.isSpace(bytes[start]) { start += 1 }
        if let declaration = try XMLDeclaration(bytes, at: start, rules: rules) {
            start = declaration.end
            switch declaration.encoding {
            case _ where marked: break  // the byte order mark is the stronger word
            case nil, "utf-8", "utf8", "us-ascii", "ascii": break
            case let name? where rules.singleByteEncodings && Self.singleByteNames.contains(name):
                bytes = Array(bytes[..<start]) + Self.singleByteToUTF8(bytes[start...], windows: name.contains("1252"))
            default:
                throw ParseError.unsupported("\(rules.kind) in an encoding other than UTF-8 (\(declaration.encoding ?? ""))")
            }
        }
        if let bad = Self.firstInvalid(bytes, from: start) {
            throw rules.malformed(bad.reason, line: Self.line(of: bad.index, in: bytes))
        }
        self.bytes = bytes
        self.start = start
    }

    /// The line (from 1) that holds byte `index`.
    static func line(of index: Int, in bytes: [UInt8]) -> Int {
        bytes[..<min(index, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// The first byte that is not part of valid UTF-8 or is a character XML 1.0 excludes
    /// (controls but tab and line ends, U+FFFE, U+FFFF), and what is wrong with it.
    private static func firstInvalid(_ bytes: [UInt8], from start: Int) -> (index: Int, reason: String)? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < buffer.count {
                let lead = buffer[index]
                if lead < 0x80 {
                    if lead < 0x20 && lead != 0x09 && lead != 0x0A && lead != 0x0D {
                        return (index, "a control character (\(lead)) XML does not allow")
                    }
                    index += 1
                    continue
                }
                let length: Int, smallest: UInt32
                switch lead {
                case 0xC2...0xDF: (length, smallest) = (2, 0x80)
                case 0xE0...0xEF: (length, smallest) = (3, 0x800)
                case 0xF0...0xF4: (length, smallest) = (4, 0x10000)
                default: return (index, "bytes that are not UTF-8")
                }
                guard index + length <= buffer.count else { return (index, "bytes that are not UTF-8") }
                var scalar = UInt32(lead) & (0x7F >> length)
                for offset in 1..<length {
                    let byte = buffer[index + offset]
                    guard byte & 0xC0 == 0x80 else { return (index, "bytes that are not UTF-8") }
                    scalar = scalar << 6 | UInt32(byte & 0x3F)
                }
                guard scalar >= smallest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                    return (index, "bytes that are not UTF-8")
                }
                guard scalar != 0xFFFE, scalar != 0xFFFF else { return (index, "a character XML does not allow") }
                index += length
            }
            return nil
        }
    }

    static func utf16ToUTF8(_ input: [UInt8], bigEndian: Bool, rules: XMLRules) throws -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(input.count / 2)
        var index = 2
        while index + 1 < input.count {
            let (high, low) = bigEndian ? (input[index], input[index + 1]) : (input[index + 1], input[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        var output: [UInt8] = []
        output.reserveCapacity(units.count * 3 / 2)
        let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) {
            output.append($0)
        }
        if failed || input.count % 2 != 0 {
            throw rules.malformed("bytes that are not UTF-16", line: line(of: output.count, in: output))
        }
        return output
    }

    static let singleByteNames: Set = ["iso-8859-1", "latin1", "latin-1", "iso8859-1", "iso_8859-1", "windows-1252", "cp1252"]

    /// windows-1252's characters for 0x80–0x9F (where ISO-8859-1 has control characters);
    /// 0 marks the five bytes it leaves undefined, read as ISO-8859-1's.
    private static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    static func singleByteToUTF8(_ bytes: ArraySlice<UInt8>, windows: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            var scalar = UInt32(byte)
            if windows, (0x80...0x9F).contains(byte), windows1252[Int(byte) - 0x80] != 0 {
                scalar = windows1252[Int(byte) - 0x80]
            }
            output.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        }
        return output
    }
}
