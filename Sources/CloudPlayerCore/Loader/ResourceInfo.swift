import NIOHTTP1

/// What a server says about a file: its length, its version, its type, and whether it serves
/// byte ranges. Learned from the first response (a ranged GET, a HEAD or a PROPFIND).
public struct ResourceInfo: Sendable, Equatable {
    public var length: Int64
    /// A strong ETag or, failing that, Last-Modified: what `If-Range` carries. Nil when the
    /// server gives neither — then a cached copy cannot be checked, and is trusted on its length.
    public var validator: String?
    public var contentType: String?
    public var acceptsRanges: Bool

    public init(length: Int64, validator: String?, contentType: String? = nil, acceptsRanges: Bool = true) {
        self.length = length
        self.validator = validator
        self.contentType = contentType
        self.acceptsRanges = acceptsRanges
    }

    /// The validator in a response: a strong ETag (weak ones may not be used in `If-Range`), else
    /// Last-Modified.
    static func validator(in headers: HTTPHeaders) -> String? {
        if let etag = headers.first(name: "ETag")?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\"") {
            return etag
        }
        return headers.first(name: "Last-Modified")
    }
}
