import Base
import Config
import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1

/// A source's requests sent with its access token (`Authorization: SCHEME TOKEN`): the token asked
/// for before each request, a 401 answered with a renewed token and the request sent again (twice at most),
/// and an API that answers 429 or 503 waited out as `Retry-After` asks (a few times). The token
/// goes only where `carriesToken` says — never to a host a redirect names, never in a URL. One for
/// every provider that speaks JSON over HTTP with an OAuth token (Yandex.Disk, Dropbox, OneDrive, Box,
/// Google Drive).
package final class TokenSession: Sendable {
    /// Tries of a call the API keeps answering 429 or 503.
    static let busyTries = 4

    package let transport: HTTPTransport
    package let tokens: any AccessTokens
    /// The token the transport sends now.
    private let token: Locked<Secret?>

    /// An answer read whole: its status, headers and body.
    package struct Answer: Sendable {
        package var status: HTTPResponseStatus
        package var headers: HTTPHeaders
        package var body: [UInt8]
    }

    /// `scheme`: `Bearer`, or Yandex's `OAuth`; `carriesToken`: whether a URL gets the token.
    package init(name: String, tlsCAFile: String?, readTimeout: Double, proxy: ProxyRules, tokens: any AccessTokens, scheme: String,
                 carriesToken: @escaping @Sendable (URL) -> Bool) throws {
        self.tokens = tokens
        let token = Locked<Secret?>(nil)
        self.token = token
        transport = try HTTPTransport(name: name, tlsCAFile: tlsCAFile, readTimeout: readTimeout, proxy: proxy) { url in
            guard carriesToken(url), let secret = token.withLock({ $0 }) else { return [:] }
            return ["Authorization": scheme + " " + secret.reveal()]
        }
    }

    package var name: String { transport.name }

    /// Sends a request with the current token; a 401 is answered with a renewed token.
    package nonisolated(nonsending) func send(_ url: URL, method: HTTPMethod = .GET, headers: HTTPHeaders = [:],
                                              body: String? = nil) async throws -> HTTPAnswer {
        try await sendFollowing(url, method: method, headers: headers, body: body).response
    }

    /// `send`, and the URL that answered (the last redirect's): a provider's redirect to a
    /// short-lived download URL (Graph's `/content`) can be used again without the redirect.
    package nonisolated(nonsending) func sendFollowing(_ url: URL, method: HTTPMethod = .GET, headers: HTTPHeaders = [:],
                                                       body: String? = nil) async throws -> (response: HTTPAnswer, url: URL) {
        var sent = try await tokens.current()
        token.withLock { $0 = sent }
        var answer = try await transport.sendFollowing(url, method: method, headers: headers, body: body)
        // Twice at most: the first renewal may be another process's newer token from the store
        // (`cloudplayerd play` refreshed meanwhile), which may have ended too; the second then
        // refreshes — or says the login is needed.
        for _ in 0..<2 {
            guard answer.response.status == .unauthorized, let fresh = try await tokens.renewed(after: sent) else { break }
            token.withLock { $0 = fresh }
            _ = try? await answer.response.body.collect(upTo: 1 << 16)
            answer = try await transport.sendFollowing(url, method: method, headers: headers, body: body)
            sent = fresh
        }
        return answer
    }

    /// What says "busy: come back later" in a provider's answers.
    package struct Busy: Sendable {
        /// Statuses that are busy whatever the body says: an API call's 429 and 503. None for a
        /// file's bytes, whose 429 and 503 the loader waits out for the whole host (`HostLimiter`).
        package var statuses: Set<UInt>
        /// A status that is busy when its body says so in the provider's own words (Google Drive's
        /// 403 `userRateLimitExceeded`), and how to tell.
        package var inWords: Words?

        package struct Words: Sendable {
            package var status: UInt
            package var says: @Sendable ([UInt8]) -> Bool

            package init(status: UInt, says: @escaping @Sendable ([UInt8]) -> Bool) {
                self.status = status
                self.says = says
            }
        }

        package init(statuses: Set<UInt>, inWords: Words? = nil) {
            self.statuses = statuses
            self.inWords = inWords
        }
    }

    /// An answer as `send(_:waitingOut:…)` hands it on.
    package enum Sent: Sendable {
        /// Its body not read yet: a file's bytes, or an API's answer to be read.
        case streaming(HTTPAnswer)
        /// Read whole (up to `largest` bytes), to see whether it says busy: it did not, or the
        /// tries are spent.
        case read(Answer)
    }

    /// Sends a request, waiting out busy answers (`busy`) a few times (`busyTries` in all): as
    /// `Retry-After` asks, else 1 s, 2 s, 4 s. The last answer is handed on whatever it says. One
    /// loop for JSON calls and for streamed bytes alike; `file`: what it is about, for messages.
    package nonisolated(nonsending) func send(_ url: URL, method: HTTPMethod = .GET, headers: HTTPHeaders = [:], body: String? = nil,
                                              waitingOut busy: Busy, largest: Int, about file: String) async throws -> Sent {
        var attempt = 1
        while true {
            let response = try await send(url, method: method, headers: headers, body: body)
            let last = attempt == Self.busyTries
            if busy.statuses.contains(response.status.code) && !last {
                _ = try? await response.body.collect(upTo: 1 << 16)
                try await Task.sleep(for: Self.busyDelay(response.headers, attempt: attempt))
                attempt += 1
                continue
            }
            guard let words = busy.inWords, response.status.code == words.status else { return .streaming(response) }
            let answer = try await read(response, largest: largest, about: file)
            guard !last, words.says(answer.body) else { return .read(answer) }
            try await Task.sleep(for: Self.busyDelay(answer.headers, attempt: attempt))
            attempt += 1
        }
    }

    /// An API call's answer read whole (up to `largest` bytes), after waiting out 429 and 503 —
    /// and answers the provider says are a rate limit in its own words (`busyInWords`).
    package nonisolated(nonsending) func call(_ url: URL, method: HTTPMethod = .GET, headers: HTTPHeaders, body: String? = nil,
                                              largest: Int, about file: String, busyInWords: Busy.Words? = nil) async throws -> Answer {
        switch try await send(url, method: method, headers: headers, body: body, waitingOut: Busy(statuses: [429, 503], inWords: busyInWords),
                              largest: largest, about: file) {
        case .read(let answer): answer
        case .streaming(let response): try await read(response, largest: largest, about: file)
        }
    }

    private nonisolated(nonsending) func read(_ response: HTTPAnswer, largest: Int, about file: String) async throws -> Answer {
        let collected: ByteBuffer
        do {
            collected = try await response.body.collect(upTo: largest)
        } catch {
            throw LoaderError.network("the API's answer about \(file) broke off, or is larger than \(largest >> 20) MiB")
        }
        return Answer(status: response.status, headers: response.headers, body: Array(collected.readableBytesView))
    }

    /// How long to wait before the `attempt`th retry of a busy answer: what its `Retry-After`
    /// asks, else 1 s, 2 s, 4 s… (exponential backoff, as the providers ask:
    /// https://developers.google.com/drive/api/guides/limits).
    static func busyDelay(_ headers: HTTPHeaders, attempt: Int) -> Duration {
        RetryAfter.delay(in: headers) ?? .seconds(1 << min(max(attempt - 1, 0), 6))
    }

    /// A refusal of the API as one message naming the source and the file (`file`), with the
    /// provider's own error code (`code`) and words when they repeat no token; `missing`: how the
    /// provider's 404 is said ("not in the drive").
    package func refusal(_ status: HTTPResponseStatus, code: String?, words: String?, about file: String, missing: String) -> LoaderError {
        let kind = code.map { " \($0)" } ?? ""
        let words = withoutToken(words)
        let said = words.isEmpty ? "" : ": \(words)"
        let reason = switch status.code {
        case 401: "the token was refused (HTTP 401\(kind)\(said)); give a valid token, or run `cloudplayerctl login \(name)`"
        case 403: "access refused (HTTP 403\(kind)\(said))"
        case 404: "\(missing) (HTTP 404\(kind)\(said))"
        case 429: "the API is busy (HTTP 429\(kind)\(said))"
        default: "the API answered HTTP \(status.code)\(kind)\(said)"
        }
        return .service(source: name, reason: "\(file): \(reason)")
    }

    /// A provider's own words for a message, up to 200 characters, or nothing if they repeat the token.
    package func withoutToken(_ words: String?) -> String {
        let words = String((words ?? "").prefix(200))
        if let secret = token.withLock({ $0 }), !secret.reveal().isEmpty, words.contains(secret.reveal()) { return "" }
        return words
    }
}
