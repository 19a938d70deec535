import Model
import NIOHTTP1

extension ResourceInfo {
    /// The version a response states: its `ETag` (weak or strong) and `Last-Modified`, and what
    /// `If-Range` may carry for it (the `Date` header decides whether the date may).
    package static func version(in headers: HTTPHeaders) -> Validator? {
        Validator(etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"),
                  date: headers.first(name: "Date"))
    }
}
