import FoundationEssentials

/// A small file fetched whole (a podcast feed, a playlist file), with the validator that lets the
/// next scan ask "has it changed?" instead of fetching it again.
package struct FetchedDocument: Sendable {
    package var bytes: [UInt8]
    /// ETag, else Last-Modified; nil when the server gives neither.
    package var validator: String?
    /// What the server said it is (`Content-Type`); nil for a file of this machine.
    package var contentType: String?

    package init(bytes: [UInt8], validator: String?, contentType: String? = nil) {
        self.bytes = bytes
        self.validator = validator
        self.contentType = contentType
    }
}
