import Model

/// One `<response>` of a WebDAV multistatus: a file or a folder, with what PROPFIND said of it.
package struct DAVEntry: Sendable, Equatable {
    /// The href as the server wrote it (percent-encoded path, or an absolute URL).
    package var href: String
    package var isFolder = false
    package var length: Int64?
    package var etag: String?
    package var lastModified: String?
    package var contentType: String?

    package init(href: String) {
        self.href = href
    }

    /// What a loader needs; nil for folders and for files without a length.
    package var info: ResourceInfo? {
        guard !isFolder, let length else { return nil }
        // No `ifRange`: a listing's tag may be of another form than the one GET answers with.
        return ResourceInfo(length: length, validator: Validator(etag: etag, lastModified: lastModified)?.text,
                            contentType: contentType)
    }
}
