import Model
import NIOHTTP1

extension ResourceInfo {
    /// The validator in a response: a strong ETag (weak ones may not be used in `If-Range`), else
    /// Last-Modified.
    package static func validator(in headers: HTTPHeaders) -> String? {
        if let etag = headers.first(name: "ETag")?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\"") {
            return etag
        }
        return headers.first(name: "Last-Modified")
    }
}
