/// Spelling the parts of a URL (RFC 3986 §2): which bytes stand raw, which are escaped. The one
/// percent-encoder: URLs here, and the sources' queries, forms, SigV4 names and token file names.
package enum PercentEncoding {
    /// A set of ASCII bytes.
    package struct Bytes: Sendable {
        private var bits: (UInt64, UInt64) = (0, 0)

        package init(_ characters: String) {
            for byte in characters.utf8 { insert(byte) }
        }

        private mutating func insert(_ byte: UInt8) {
            if byte < 64 { bits.0 |= 1 << UInt64(byte) } else if byte < 128 { bits.1 |= 1 << UInt64(byte - 64) }
        }

        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? bits.0 & (1 << UInt64(byte)) != 0 : byte < 128 && bits.1 & (1 << UInt64(byte - 64)) != 0
        }

        package func union(_ other: Bytes) -> Bytes {
            var both = self
            both.bits = (bits.0 | other.bits.0, bits.1 | other.bits.1)
            return both
        }

        func subtracting(_ other: Bytes) -> Bytes {
            var rest = self
            rest.bits = (bits.0 & ~other.bits.0, bits.1 & ~other.bits.1)
            return rest
        }
    }

    /// ALPHA DIGIT (ASCII only).
    package static let alphanumerics = Bytes("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    /// ALPHA DIGIT - . _ ~: the same raw or escaped (§2.3), and written raw.
    package static let unreserved = alphanumerics.union(Bytes("-._~"))
    static let subDelimiters = Bytes("!$&'()*+,;=")
    /// What a path segment may hold raw (`pchar`, §3.3).
    static let segmentRaw = unreserved.union(subDelimiters).union(Bytes(":@"))
    static let pathRaw = segmentRaw.union(Bytes("/"))
    static let queryRaw = segmentRaw.union(Bytes("/?"))
    /// A host: a registered name, or an IP-literal in brackets.
    static let hostRaw = unreserved.union(subDelimiters).union(Bytes(":[]"))
    /// A file name in a path segment (`CanonicalURL.spelledAsNames`): `pchar` but for `;` and
    /// `+`, which stay escaped — servlet containers cut a segment at `;` (path parameters), form
    /// decoders read `+` as a space — so a name reaches every server as the same name.
    static let nameRaw = segmentRaw.subtracting(Bytes(";+"))

    /// `text` with escapes of bytes in `decode` decoded, other escapes in upper-case hex, and
    /// bytes not in `raw` (a `%` that starts no escape among them) escaped. Decoding only what
    /// `raw` allows keeps the text meaning what it meant: a decoded byte is never a delimiter.
    static func respell(_ text: some StringProtocol, keeping raw: Bytes, decoding decode: Bytes? = nil) -> String {
        let decode = decode ?? raw
        let bytes = Array(text.utf8)
        var spelled: [UInt8] = []
        spelled.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let value = hexValue(bytes[index + 1], bytes[index + 2]) {
                if decode.contains(value) { spelled.append(value) } else { appendEscape(value, to: &spelled) }
                index += 3
            } else {
                if raw.contains(byte) { spelled.append(byte) } else { appendEscape(byte, to: &spelled) }
                index += 1
            }
        }
        return String(decoding: spelled, as: UTF8.self)
    }

    /// Every byte of `text`'s UTF-8 outside `raw` as `%XX` (upper-case hex), a `%` included.
    package static func encoded(_ text: some StringProtocol, keeping raw: Bytes) -> String {
        var spelled: [UInt8] = []
        spelled.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if raw.contains(byte) { spelled.append(byte) } else { appendEscape(byte, to: &spelled) }
        }
        return String(decoding: spelled, as: UTF8.self)
    }

    /// The text `bytes` spell, every escape decoded; nil when that is not UTF-8. (A `Substring`,
    /// not any `StringProtocol`: a generic one is not made for its type in another module, and
    /// an MPD listing decodes every song's name.)
    package static func decoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        let bytes = Array(text.utf8)
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let value = hexValue(bytes[index + 1], bytes[index + 2]) {
                plain.append(value)
                index += 3
            } else {
                plain.append(bytes[index])
                index += 1
            }
        }
        return String(validating: plain, as: UTF8.self)
    }

    private static func appendEscape(_ byte: UInt8, to spelled: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        spelled += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }

    private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = hexDigit(high), let low = hexDigit(low) else { return nil }
        return high << 4 | low
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
