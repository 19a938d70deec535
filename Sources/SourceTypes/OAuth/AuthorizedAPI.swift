import AsyncHTTPClient
import Base
import Config
import Foundation
import Loader
import Model
import NIOCore
import NIOHTTP1

/// A provider's JSON API called with an access token in a header (Yandex.Disk's `OAuth`, Graph's
/// `Bearer`): a 401 answered once with a renewed token and the call sent again, 429/503 waited out
/// as `Retry-After` asks (a few times). The token goes only to the URLs `authorizes` accepts — the
/// API's origin, hosts the API itself named — never to a host a redirect names, never in a URL.
/// One for every cloud source, so they handle tokens and throttling alike.
final class AuthorizedAPI: Sendable {
    /// The largest answer read: a page of a thousand items is well below.
    static let largestAnswer = 16 << 20
    /// Tries of a call the API keeps answering 429 or 503.
    static let busyTries = 4

    let name: String
    let transport: HTTPTransport
    let tokens: any AccessTokens
    /// The token the transport sends now.
    private let token: Locked<Secret?>

    /// `scheme`: the word before the token (`OAuth`, `Bearer`).
    init(name: String, tlsCAFile: String?, readTimeout: Double, tokens: any AccessTokens, scheme: String,
         authorizes: @escaping @Sendable (URL) -> Bool) throws {
        self.name = name
        self.tokens = tokens
        let token = Locked<Secret?>(nil)
        self.token = token
        transport = try HTTPTransport(name: name, tlsCAFile: tlsCAFile, readTimeout: readTimeout) { url in
            guard authorizes(url), let secret = token.withLock({ $0 }) else { return [:] }
            return ["Authorization": scheme + " " + secret.reveal()]
        }
    }

    /// Sends a GET with the current token where it belongs, redirects followed; a 401 is
    /// answered once with a renewed token. Also says which URL answered (the last redirect's).
    nonisolated(nonsending) func send(_ url: URL, headers: HTTPHeaders = [:]) async throws -> (response: HTTPClientResponse, url: URL) {
        let sent = try await currentToken()
        let first = try await transport.sendFollowing(url, method: .GET, headers: headers)
        guard first.response.status == .unauthorized, try await renew(after: sent) else { return first }
        _ = try? await first.response.body.collect(upTo: 1 << 16)
        return try await transport.sendFollowing(url, method: .GET, headers: headers)
    }

    /// A JSON call's 200 body; `failure` turns any other answer into one message about `file`.
    nonisolated(nonsending) func call(_ url: URL, about file: String,
                                      failure: (HTTPResponseStatus, [UInt8]) -> LoaderError) async throws -> [UInt8] {
        for attempt in 1...Self.busyTries {
            let response = try await send(url, headers: ["Accept": "application/json"]).response
            if [429, 503].contains(response.status.code) && attempt < Self.busyTries {
                let delay = RetryAfter.delay(in: response.headers) ?? .seconds(attempt)
                _ = try? await response.body.collect(upTo: 1 << 16)
                try await Task.sleep(for: delay)
                continue
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: Self.largestAnswer)
            } catch {
                throw LoaderError.network("the API's answer about \(file) broke off, or is larger than \(Self.largestAnswer >> 20) MiB")
            }
            let bytes = Array(body.readableBytesView)
            guard response.status == .ok else { throw failure(response.status, bytes) }
            return bytes
        }
        throw LoaderError.service(source: name, reason: "\(file): the API kept answering that it is busy (HTTP 429)")
    }

    /// A refusal as one message naming the source and the file, with the provider's error code
    /// and its own words — cut short, and left out if they repeat the token. `missing`: how a
    /// 404 is said ("not on the disk").
    func refusal(_ status: HTTPResponseStatus, code: String?, words: String?, about file: String, missing: String) -> LoaderError {
        let kind = code.map { " \($0)" } ?? ""
        var words = String((words ?? "").prefix(200))
        if let secret = token.withLock({ $0 }), !secret.reveal().isEmpty, words.contains(secret.reveal()) { words = "" }
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

    private nonisolated(nonsending) func currentToken() async throws -> Secret {
        let secret = try await tokens.current()
        token.withLock { $0 = secret }
        return secret
    }

    /// After a 401 to a request sent with `sent`: whether a new token is there to try.
    private nonisolated(nonsending) func renew(after sent: Secret) async throws -> Bool {
        guard let fresh = try await tokens.renewed(after: sent) else { return false }
        token.withLock { $0 = fresh }
        return true
    }
}
