import Foundation

/// What the proxy can be told to do wrong, and what it logs of each request.
extension FaultProxy {
    /// One way to misbehave.
    public enum Fault: Sendable, Equatable {
        /// Sends this many body bytes, then drops the connection.
        case reset(afterBytes: Int)
        /// Sends this many body bytes, then sends nothing for `seconds` before going on.
        case stall(afterBytes: Int, seconds: Double)
        /// Answers with this status and no body instead of asking the server.
        case status(Int)
        /// Claims `extra` more bytes in Content-Length than it sends, then closes.
        case lyingLength(extra: Int)
        /// Answers 302 with this Location (the path of the request appended) instead of asking the server.
        case redirect(to: String)
        /// Answers the next request of this method (PROPFIND, GET) with this status and body
        /// (and these header lines, `Name: value`) instead of asking the server: a server that
        /// lies, or is broken, or redirects to a bucket's region.
        case answer(method: String, status: Int, body: String, headers: [String] = [])
        /// Answers the next GET with this status (429, 503) and `Retry-After`: `seconds`, or
        /// with `asDate` an HTTP-date that many seconds after the answer's `Date`.
        case busy(status: Int, retryAfter: Int, asDate: Bool)
    }

    /// What one request asked and how it was answered.
    public struct Exchange: Sendable {
        public let method: String
        public let path: String
        public let range: String?
        public let ifRange: String?
        public let authorization: String?
        /// The request's Accept-Encoding.
        public let acceptEncoding: String?
        public let status: Int
        public let bodyBytes: Int
        /// When the request arrived (its head read).
        public let at: ContinuousClock.Instant
        /// The answer's ETag header: how the server stated the version.
        public let etag: String?
    }
}
