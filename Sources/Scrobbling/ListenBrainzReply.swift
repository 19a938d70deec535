import Base
import FoundationEssentials
import Loader
import NIOHTTP1

/// What an answer to `submit-listens` means for the listens sent, after the API's documentation
/// (listenbrainz.readthedocs.io/en/latest/users/api/core.html and …/api/index.html, "Rate
/// limiting"): 200 accepted; 400 the listens were refused as they are; 401 the token was refused;
/// 429 too many requests. Every answer carries `X-RateLimit-Remaining` and `X-RateLimit-Reset-In`.
package struct ListenBrainzReply: Sendable, Equatable {
    package enum Outcome: Sendable, Equatable {
        case accepted
        /// 400: the service will never take these listens as they are.
        case refused(String)
        /// 401: the user token is wrong or was reset.
        case tokenRefused(String)
        /// 429: sent too soon; try again after the wait.
        case rateLimited
        /// Any other answer (5xx, a proxy's page): try again later.
        case unavailable(String)
    }

    package let outcome: Outcome
    /// How long to wait before the next request: the window's rest when none is left in it, or
    /// what a 429 asked for.
    package let wait: Duration?

    /// The wait when a 429 names none.
    static let defaultRateLimitWait = Duration.seconds(10)

    package init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        let message = Self.message(in: body) ?? "HTTP \(status)"
        switch status {
        case 200: outcome = .accepted
        case 400: outcome = .refused(message)
        case 401: outcome = .tokenRefused(message)
        case 429: outcome = .rateLimited
        default: outcome = .unavailable(message)
        }
        let resetIn = headers.first(name: "X-RateLimit-Reset-In").flatMap { Double($0.trimmingBlanks()) }
            .map { Duration.milliseconds(Int64(min(max($0, 0), 3600) * 1000)) }
        let remaining = headers.first(name: "X-RateLimit-Remaining").flatMap { Int($0.trimmingBlanks()) }
        if status == 429 {
            // At least a second: a window said to reset "in 0" must not be asked again at once.
            wait = max(resetIn ?? RetryAfter.delay(in: headers) ?? Self.defaultRateLimitWait, .seconds(1))
        } else if remaining.map({ $0 <= 0 }) ?? false {
            wait = resetIn
        } else {
            wait = nil
        }
    }

    /// The `error` (or `message`) of a JSON error body, on one line.
    private static func message(in body: [UInt8]) -> String? {
        guard let object = try? JSONDecoder().decode(ErrorBody.self, from: Data(body)),
              let text = object.error ?? object.message else { return nil }
        return String(text.prefix(300)).replacing("\n", with: " ")
    }

    /// The part of an error body that says what went wrong.
    private struct ErrorBody: Decodable {
        var error: String?
        var message: String?
    }
}
