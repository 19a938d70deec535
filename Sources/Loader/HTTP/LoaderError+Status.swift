import Model
import NIOHTTP1

extension LoaderError {
    /// The error for an HTTP status that is not an answer, from the source `source`.
    package init(status: HTTPResponseStatus, source: String) {
        switch status.code {
        case 401, 403: self = .refused(source: source, status: Int(status.code))
        case 404, 410: self = .notFound
        default: self = .http(status: Int(status.code))
        }
    }
}
