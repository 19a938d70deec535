import FoundationEssentials

/// A small file fetched whole (a podcast feed, a playlist file), with the validator that lets the
/// next scan ask "has it changed?" instead of fetching it again.
package struct FetchedDocument: Sendable {
    package var bytes: [UInt8]
    /// ETag, else Last-Modified; nil when the server gives neither.
    package var validator: String?
    /// What the server said it is (`Content-Type`); nil for a file of this machine.
    package var contentType: String?
    /// The URL that answered, after redirects: what the document's relative links are relative to
    /// (an HLS playlist's segments, after a redirect to a CDN). Nil when not known.
    package var url: URL?

    package init(bytes: [UInt8], validator: String?, contentType: String? = nil, url: URL? = nil) {
        self.bytes = bytes
        self.validator = validator
        self.contentType = contentType
        self.url = url
    }
}
