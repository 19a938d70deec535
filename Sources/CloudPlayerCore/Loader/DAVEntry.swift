import Foundation

/// One `<response>` of a WebDAV multistatus: a file or a folder, with what PROPFIND said of it.
public struct DAVEntry: Sendable, Equatable {
    /// The href as the server wrote it (percent-encoded path, or an absolute URL).
    public var href: String
    public var isFolder = false
    public var length: Int64?
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?

    public init(href: String) {
        self.href = href
    }

    /// What a loader needs; nil for folders and for files without a length.
    public var info: ResourceInfo? {
        guard !isFolder, let length else { return nil }
        let validator = etag.flatMap { $0.hasPrefix("\"") ? $0 : nil } ?? lastModified
        return ResourceInfo(length: length, validator: validator, contentType: contentType)
    }
}
