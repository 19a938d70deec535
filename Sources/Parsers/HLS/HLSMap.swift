import FoundationEssentials

/// The media initialization section the segments after an `EXT-X-MAP` tag need first
/// (RFC 8216 §4.3.2.5): an fMP4 segment's `ftyp` and `moov`, say.
package struct HLSMap: Sendable, Equatable {
    package var uri: URL
    package var byteRange: Range<Int64>?

    package init(uri: URL, byteRange: Range<Int64>? = nil) {
        self.uri = uri
        self.byteRange = byteRange
    }

    /// From a tag's attributes: URI is required; a BYTERANGE without an offset starts at 0
    /// (there is no previous sub-range for it to follow).
    init(_ attributes: HLSAttributeList, base: URL) throws {
        guard let text = try attributes.string("URI") else { throw ParseError.malformed("EXT-X-MAP without URI") }
        guard let uri = LinkResolver.url(text, relativeTo: base) else {
            throw ParseError.malformed("EXT-X-MAP's URI \"\(HLSLine.quoted(text))\" is not an http(s) URL")
        }
        self.uri = uri
        if let text = try attributes.string("BYTERANGE") {
            guard let range = HLSNumbers.byteRange(text) else { throw ParseError.malformed("EXT-X-MAP's BYTERANGE \"\(text)\" is not n[@o]") }
            let offset = range.offset ?? 0
            byteRange = offset..<(offset + range.length)
        }
    }
}
