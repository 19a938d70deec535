import FoundationEssentials

/// How the segments after an `EXT-X-KEY` tag are encrypted (RFC 8216 §4.3.2.4): the method,
/// where the key is, and the IV if the tag gives one (`HLSSegment.iv()` derives the others).
/// `METHOD=NONE` is no key at all: the segment's `key` is nil.
package struct HLSKey: Sendable, Equatable {
    package enum Method: Sendable, Equatable {
        /// The whole segment in AES-128 CBC with PKCS7 padding.
        case aes128
        /// Samples encrypted inside the segment's elementary streams.
        case sampleAES
        case other(String)
    }

    package var method: Method
    /// Nil when the URI is missing or not an http(s) URL (FairPlay's `skd://`, a `data:` URI).
    package var uri: URL?
    /// 16 bytes: a shorter hexadecimal sequence is taken as the low bytes.
    package var iv: [UInt8]?
    /// Nil for the default, "identity": the key file holds the key itself.
    package var keyFormat: String?

    package init(method: Method, uri: URL?, iv: [UInt8]? = nil, keyFormat: String? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
    }

    /// Whether the key file is the key (not a DRM system's license): the only kind a player
    /// without DRM can use.
    package var isIdentity: Bool { keyFormat == nil }

    /// From a tag's attributes; nil for `METHOD=NONE`.
    init?(_ attributes: HLSAttributeList, base: URL) throws {
        guard let method = try attributes.enumerated("METHOD") else { throw ParseError.malformed("EXT-X-KEY without METHOD") }
        switch method {
        case "NONE": return nil
        case "AES-128": self.method = .aes128
        case "SAMPLE-AES": self.method = .sampleAES
        default: self.method = .other(method)
        }
        uri = try attributes.string("URI").flatMap { LinkResolver.url($0, relativeTo: base) }
        if let bytes = try attributes.hexadecimal("IV") {
            let significant = bytes.drop { $0 == 0 }
            guard significant.count <= 16 else { throw ParseError.malformed("EXT-X-KEY's IV is longer than 128 bits") }
            iv = [UInt8](repeating: 0, count: 16 - significant.count) + significant
        }
        let format = try attributes.string("KEYFORMAT")
        keyFormat = format == "identity" ? nil : format
    }
}
