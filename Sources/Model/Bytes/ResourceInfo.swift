/// What a server says about a file: its length, its version, its type, and whether it serves
/// byte ranges. Learned from the first response (a ranged GET, a HEAD or a PROPFIND).
package struct ResourceInfo: Sendable, Equatable {
    package var length: Int64
    /// A strong ETag or, failing that, Last-Modified: what `If-Range` carries. Nil when the
    /// server gives neither — then a cached copy cannot be checked, and is trusted on its length.
    package var validator: String?
    package var contentType: String?
    package var acceptsRanges: Bool

    package init(length: Int64, validator: String?, contentType: String? = nil, acceptsRanges: Bool = true) {
        self.length = length
        self.validator = validator
        self.contentType = contentType
        self.acceptsRanges = acceptsRanges
    }
}
