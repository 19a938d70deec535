import Base

/// An HLS attribute list (RFC 8216 §4.2): `NAME=value` pairs separated by commas, where a value
/// is a quoted string (which may hold commas), a decimal integer, a hexadecimal sequence, a
/// decimal float, an enumerated string or a resolution. The syntax is checked when the list is
/// read; each value's type when an attribute is asked for, since only the tag knows it.
struct HLSAttributeList {
    /// Each attribute's name and its value as written (a quoted string without its quotes).
    private var values: [String: (text: String, quoted: Bool)] = [:]

    /// Throws `ParseError.malformed` for a name that is not `[A-Z0-9-]+`, a missing `=`, an
    /// unterminated quoted string, or anything but a comma after a value.
    init(_ text: Substring) throws {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let nameStart = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw ParseError.malformed("attribute list \"\(Self.excerpt(text))\": expected NAME= at byte \(nameStart + 1)")
            }
            index += 1
            let value: (text: String, quoted: Bool)
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else {
                    throw ParseError.malformed("attribute list \"\(Self.excerpt(text))\": \(name)'s quoted string has no closing quote")
                }
                value = (String(decoding: bytes[(index + 1)..<close], as: UTF8.self), true)
                index = close + 1
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "\"") { index += 1 }
                value = (String(decoding: bytes[start..<index], as: UTF8.self).trimmingWhitespace(), false)
                guard !value.text.isEmpty else {
                    throw ParseError.malformed("attribute list \"\(Self.excerpt(text))\": \(name) has no value")
                }
            }
            // The first of a repeated name counts (RFC 8216: it must not be repeated).
            if values[name] == nil { values[name] = value }
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw ParseError.malformed("attribute list \"\(Self.excerpt(text))\": expected a comma after \(name)")
            }
            index += 1
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }
    }

    /// A quoted-string attribute; a value written without quotes is refused.
    func string(_ name: String) throws -> String? {
        guard let value = values[name] else { return nil }
        guard value.quoted else { throw ParseError.malformed("\(name)=\(value.text) should be a quoted string") }
        return value.text
    }

    /// An enumerated-string attribute (`METHOD=AES-128`, `TYPE=AUDIO`, `DEFAULT=YES`).
    func enumerated(_ name: String) throws -> String? {
        guard let value = values[name] else { return nil }
        guard !value.quoted else { throw ParseError.malformed("\(name)=\"\(value.text)\" should not be quoted") }
        return value.text
    }

    /// A decimal-integer attribute (0 to 2^63 − 1 here; nothing HLS counts comes near).
    func integer(_ name: String) throws -> Int? {
        guard let value = values[name] else { return nil }
        guard !value.quoted, let number = HLSNumbers.integer(value.text) else {
            throw ParseError.malformed("\(name)=\(value.text) is not a decimal integer")
        }
        return number
    }

    /// A hexadecimal-sequence attribute (`0x…`), as bytes; an odd count of digits is read as if
    /// led by a zero.
    func hexadecimal(_ name: String) throws -> [UInt8]? {
        guard let value = values[name] else { return nil }
        let digits = value.text.utf8.dropFirst(2)
        guard !value.quoted, value.text.lowercased().hasPrefix("0x"), !digits.isEmpty,
              digits.allSatisfy({ Self.hexValue($0) != nil }) else {
            throw ParseError.malformed("\(name)=\(value.text) is not a hexadecimal sequence")
        }
        let padded = (digits.count % 2 == 1 ? [UInt8(ascii: "0")] : []) + Array(digits)
        return stride(from: 0, to: padded.count, by: 2).map { index in
            (Self.hexValue(padded[index]) ?? 0) << 4 | (Self.hexValue(padded[index + 1]) ?? 0)
        }
    }

    /// A YES/NO attribute; absent is `defaultValue`.
    func flag(_ name: String, default defaultValue: Bool = false) throws -> Bool {
        switch try enumerated(name) {
        case nil: return defaultValue
        case "YES"?: return true
        case "NO"?: return false
        case let other?: throw ParseError.malformed("\(name)=\(other) should be YES or NO")
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The start of a long list, for a message (`HLSLine.quoted`).
    private static func excerpt(_ text: Substring) -> String {
        HLSLine.quoted(text)
    }
}
