import Foundation

/// Checks a document before Foundation's XMLParser sees it. On Linux that parser crashes
/// (SIGILL, segfault) on names that are not valid UTF-8 and on processing instructions without
/// data such as `<?x?>`, and a DOCTYPE could declare entities: input from a server must not be
/// able to crash the daemon, so only UTF-8 with no processing instruction but a real XML
/// declaration, and no DOCTYPE or ENTITY, gets through. One guard for every XML the daemon reads.
package enum XMLInputGuard {
    /// The largest document accepted.
    static let maxBytes = 64 * 1024 * 1024

    /// The document, ready for XMLParser: without a byte order mark or whitespace before its
    /// declaration, and, if `convertingLatin1` and it declares ISO-8859-1 or windows-1252,
    /// converted to UTF-8 with its declaration saying so. `kind` names the document in errors
    /// ("a PROPFIND answer", "a podcast feed"). `allowingPlainDoctype`: a DOCTYPE that only names
    /// an external DTD (no `[…]` of declarations, and the DTD is never loaded) may stand, as RSS
    /// 0.91 feeds carry Netscape's.
    package static func checked(_ input: [UInt8], kind: String, convertingLatin1: Bool = false,
                                allowingPlainDoctype: Bool = false) throws -> Data {
        guard input.count <= maxBytes else { throw ParseError.malformed("\(kind) larger than \(maxBytes) bytes") }
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw ParseError.unsupported("\(kind) in UTF-16")
        }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        var declaration: Range<Int>?
        var document = Array(bytes)
        if bytes[start...].starts(with: "<?xml".utf8) {
            guard let (end, encoding) = parseDeclaration(bytes[start...]) else {
                throw ParseError.malformed("\(kind) whose XML declaration is not one")
            }
            switch encoding {
            case nil, "utf-8", "utf8", "us-ascii", "ascii":
                document = Array(bytes[start...])
                declaration = 0..<(end - start)
            case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "windows-1252", "cp1252":
                guard convertingLatin1 else {
                    throw ParseError.unsupported("\(kind) in an encoding other than UTF-8 (\(encoding ?? ""))")
                }
                let header = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
                document = header + Array(latin1ToUTF8(bytes[end...], windows: encoding?.contains("1252") == true).utf8)
                declaration = 0..<header.count
            default:
                throw ParseError.unsupported("\(kind) in an encoding other than UTF-8 (\(encoding ?? ""))")
            }
        }
        guard String(validating: document, as: UTF8.self) != nil else {
            throw ParseError.malformed("\(kind) that is not UTF-8")
        }
        if let problem = forbiddenMarkup(document[(declaration?.upperBound ?? 0)...], allowingPlainDoctype: allowingPlainDoctype) {
            throw ParseError.unsupported("\(kind) with \(problem)")
        }
        return Data(document)
    }

    /// The end of a real `<?xml version="1.x" …?>` declaration and its encoding (lowercased),
    /// or nil if the bytes only look like one.
    private static func parseDeclaration(_ bytes: ArraySlice<UInt8>) -> (end: Int, encoding: String?)? {
        guard let close = bytes.prefix(256).indices.first(where: {
            bytes[$0] == UInt8(ascii: "?") && $0 + 1 < bytes.endIndex && bytes[$0 + 1] == UInt8(ascii: ">")
        }) else { return nil }
        let text = String(decoding: bytes[bytes.startIndex..<(close + 2)], as: UTF8.self)
        let pattern = #"^<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*\?>$"#
        guard text.range(of: pattern, options: .regularExpression) != nil else { return nil }
        var encoding: String?
        if let declared = text.range(of: #"encoding\s*=\s*["'][^"']*["']"#, options: .regularExpression) {
            encoding = text[declared].split(whereSeparator: { $0 == "\"" || $0 == "'" }).last.map { $0.lowercased() }
        }
        return (close + 2, encoding)
    }

    /// What the parser must not see, outside comments and CDATA sections (where `<?` is text).
    private static func forbiddenMarkup(_ bytes: ArraySlice<UInt8>, allowingPlainDoctype: Bool) -> String? {
        var index = bytes.startIndex
        func at(_ marker: String) -> Bool { bytes[index...].starts(with: marker.utf8) }
        /// Moves past `end`; false if the document ends first.
        func skip(past end: String) -> Bool {
            let marker = Array(end.utf8)
            while index < bytes.endIndex, !bytes[index...].starts(with: marker) { index += 1 }
            index += marker.count
            return index <= bytes.endIndex
        }
        /// Moves past a DOCTYPE whose quoted identifiers are followed by `>`; false at a `[`.
        func skipPlainDoctype() -> Bool {
            var quote: UInt8?
            while index < bytes.endIndex {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    return false
                } else if byte == UInt8(ascii: ">") {
                    return true
                }
            }
            return false
        }
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if at("<!--") {
                guard skip(past: "-->") else { return "an unterminated comment" }
            } else if at("<![CDATA[") {
                guard skip(past: "]]>") else { return "an unterminated CDATA section" }
            } else if at("<?") {
                return "a processing instruction"
            } else if allowingPlainDoctype && at("<!DOCTYPE") {
                guard skipPlainDoctype() else { return "a DOCTYPE with declarations" }
            } else if at("<!") {
                return "a DOCTYPE or other declaration"
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// windows-1252's characters for 0x80–0x9F (where ISO-8859-1 has control characters);
    /// 0 marks the five bytes it leaves undefined.
    private static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    private static func latin1ToUTF8(_ bytes: ArraySlice<UInt8>, windows: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            if windows, (0x80...0x9F).contains(byte), let scalar = Unicode.Scalar(windows1252[Int(byte) - 0x80]),
               scalar.value != 0 {
                scalars.append(scalar)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }
}
