import FoundationEssentials
import NIOCore
import NIOHTTP1

/// A server's answer as the transport hands it over: its head, and its body as the connection
/// brings it (`PacedBody`: a consumer that stops asking holds the connection's reads, not memory).
/// Dropping the body, or leaving it unread to its end, closes the connection. (`collect(upTo:)`,
/// NIOCore's, reads a document whole.)
package struct HTTPAnswer: Sendable {
    package var status: HTTPResponseStatus
    package var headers: HTTPHeaders
    package var body: PacedBody
    /// What the answer is to: the last redirect's target (a playlist's entries are relative to it).
    package var url: URL?
}
