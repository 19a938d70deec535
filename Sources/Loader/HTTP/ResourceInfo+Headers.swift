import Model
import NIOHTTP1

extension ResourceInfo {
    /// The version a response states: its `ETag` (weak or strong) and `Last-Modified`, and what
    /// `If-Range` may carry for it (the `Date` header decides whether the date may).
    package static func version(in headers: HTTPHeaders) -> Validator? {
        Validator(etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"),
                  date: headers.first(name: "Date"))
    }

    /// What a HEAD answer (or a whole GET's) says of the file: its length, which it must give,
    /// its version, type, and whether it serves ranges.
    package static func described(by headers: HTTPHeaders) throws -> ResourceInfo {
        guard let length = headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
            throw LoaderError.badResponse("the server did not say how long the file is")
        }
        let version = version(in: headers)
        return ResourceInfo(length: length, validator: version?.text, ifRange: version?.ifRange,
                            contentType: headers.first(name: "Content-Type"), acceptsRanges: headers.first(name: "Accept-Ranges") == "bytes")
    }
}
