import Base
import Config
import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers
import SubsonicAnswers

/// Speaks the Subsonic API to one server for one source: finds out once which API version and
/// which authentication the server takes, then makes calls (their answers' envelopes read,
/// their errors turned into messages naming the source) and the URLs of media requests.
/// Credentials go only into request URLs, made afresh for every request (a new salt each).
final class SubsonicClient: Sendable {
    /// The client name the API asks for (`c`).
    static let clientName = "cloudplayerd"
    /// The newest API version we speak; a server's older version is spoken instead.
    static let ourVersion = "1.16.1"
    /// What the first, unauthenticated `ping` says it speaks: old enough for every server.
    static let probeVersion = "1.12.0"
    /// The largest answer read: a big playlist is a few MiB of JSON.
    static let largestAnswer = 64 << 20

    let source: SubsonicSource
    let transport: HTTPTransport
    /// `…/rest/`, where the API's methods are.
    private let api: URL
    /// What the server was found to speak, once it was asked.
    private let negotiated = Locked<(auth: SubsonicAuth, version: String)?>(nil)
    /// The asking under way, shared by every call that waits for it (one read of a slow secret).
    private let negotiating = SharedWork<(auth: SubsonicAuth, version: String)>()

    var name: String { source.name }

    init(source: SubsonicSource, readTimeout: Double, proxy: ProxyRules) throws {
        self.source = source
        transport = try HTTPTransport(name: source.name, tlsCAFile: source.tlsCAFile, readTimeout: readTimeout, proxy: proxy)
        let root = source.url.absoluteString.hasSuffix("/") ? source.url : source.url.appendingPathComponent("")
        api = root.appendingPathComponent("rest", isDirectory: true)
    }

    // MARK: Calls

    /// Calls `method` and returns the answer's envelope; a failed answer throws its error.
    nonisolated(nonsending) func call(_ method: String, _ parameters: [(String, String)] = []) async throws -> SubsonicElement {
        let (auth, version) = try await agreed()
        let answer = try await answer(method, parameters + Self.common(version) + auth.parameters)
        guard let failure = answer.failure else { return answer.envelope }
        if failure.code == 41, case .token(let username, let password) = auth {
            // "Token authentication not supported": the server said a version it does not keep.
            let fallback = SubsonicAuth.hexPassword(username: username, password: password)
            negotiated.withLock { $0 = (fallback, version) }
            let again = try await self.answer(method, parameters + Self.common(version) + fallback.parameters)
            if let failure = again.failure { throw error(failure, auth: fallback) }
            return again.envelope
        }
        throw error(failure, auth: auth)
    }

    /// The URL of a media request (`download`, `stream`, `getCoverArt`), with credentials:
    /// made for one request, never kept.
    nonisolated(nonsending) func mediaURL(_ method: String, _ parameters: [(String, String)]) async throws -> URL {
        let (auth, version) = try await agreed()
        return url(method, parameters + Self.common(version) + auth.parameters)
    }

    /// The error an answer that failed stands for (a media request answered with an envelope).
    func failure(in bytes: [UInt8]) -> LoaderError {
        let auth = negotiated.withLock { $0?.auth }
        guard let answer = try? SubsonicAnswerParser.parse(bytes), let failure = answer.failure else {
            return .service(source: name, reason: "the server answered a media request with a document, not audio")
        }
        return error(failure, auth: auth)
    }

    /// A server's answer to `method`, whatever its status; an error only when it is no answer.
    private nonisolated(nonsending) func answer(_ method: String, _ parameters: [(String, String)]) async throws -> SubsonicAnswer {
        let response = try await transport.send(url(method, parameters), method: .GET)
        guard response.status == .ok else { throw transport.failure(response.status) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestAnswer)
        } catch {
            throw LoaderError.network("the answer to \(method) broke off, or is larger than \(Self.largestAnswer >> 20) MiB")
        }
        do {
            return try SubsonicAnswerParser.parse(Array(body.readableBytesView))
        } catch {
            throw LoaderError.service(source: name, reason: "no Subsonic server answers at \(source.shownLocation) (\(error))")
        }
    }

    // MARK: Negotiation

    /// The authentication and API version to use, found out on first use: an unauthenticated
    /// `ping` (every answer, a failed one too, says the server's version — and no credential
    /// was sent to learn it), then `getOpenSubsonicExtensions` on an OpenSubsonic server.
    private nonisolated(nonsending) func agreed() async throws -> (auth: SubsonicAuth, version: String) {
        if let known = negotiated.withLock({ $0 }) { return known }
        return try await negotiating.run { [self] in try await negotiate() }
    }

    private func negotiate() async throws -> (auth: SubsonicAuth, version: String) {
        if let known = negotiated.withLock({ $0 }) { return known }
        let probe: SubsonicAnswer?
        do {
            probe = try await answer("ping", Self.common(Self.probeVersion))
        } catch LoaderError.refused {
            probe = nil  // a server (or a proxy before it) that answers no one without credentials
        }
        // A server that does not say is taken for a modern one: a token it refuses with error 41
        // falls back to the hex password (`call`).
        let serverVersion = probe?.version ?? SubsonicAuth.tokenVersion
        var extensions: Set<String> = []
        if probe?.isOpenSubsonic == true,
           let answer = try? await answer("getOpenSubsonicExtensions", Self.common(Self.probeVersion)), answer.failure == nil {
            extensions = Set(answer.envelope.all("openSubsonicExtensions").compactMap { $0["name"] })
        }
        let auth: SubsonicAuth
        if let apiKey = source.apiKey, extensions.contains("apiKeyAuthentication") || source.password == nil {
            guard extensions.contains("apiKeyAuthentication") else {
                throw LoaderError.service(source: name, reason: "the server takes no API key (it has no OpenSubsonic apiKeyAuthentication); "
                                          + "set username and password instead")
            }
            auth = .apiKey(try await resolve(apiKey, "api_key"))
        } else if let username = source.username, let password = source.password {
            let secret = try await resolve(password, "password")
            auth = Self.isAtLeast(serverVersion, SubsonicAuth.tokenVersion) ? .token(username: username, password: secret)
                : .hexPassword(username: username, password: secret)
        } else {
            throw LoaderError.configuration("source '\(name)': set username and password")
        }
        let version = Self.isAtLeast(serverVersion, Self.ourVersion) ? Self.ourVersion : serverVersion
        negotiated.withLock { $0 = (auth, version) }
        return (auth, version)
    }

    private func resolve(_ origin: Secret.Origin, _ key: String) async throws -> Secret {
        do {
            return try await origin.resolve()
        } catch {
            throw LoaderError.configuration("source '\(name)'.\(key): \(error)")
        }
    }

    /// Whether version `a` is `b` or later ("1.16.1" against "1.13.0").
    static func isAtLeast(_ a: String, _ b: String) -> Bool {
        let left = a.split(separator: ".").map { Int($0) ?? 0 }, right = b.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0, y = index < right.count ? right[index] : 0
            if x != y { return x > y }
        }
        return true
    }

    // MARK: Errors and URLs

    /// A failed answer as one message naming the source; a server's own words are kept only
    /// when they repeat no credential.
    private func error(_ failure: (code: Int, message: String), auth: SubsonicAuth?) -> LoaderError {
        let words = failure.message.prefix(200)
        let said = (auth?.secrets ?? []).contains { !$0.isEmpty && words.contains($0) } ? "" : ": \(words)"
        let reason = switch failure.code {
        case 10: "the server says a parameter is missing"
        case 20: "the server wants a newer client"
        case 30: "the server is older than the API version asked for"
        case 40: "the server refused the username or password; check them"
        case 41: "the server takes no token authentication"
        case 42, 43: "the server does not take this way of signing in (\(auth?.shownName ?? "none"))"
        case 44: "the server refused the API key; check it"
        case 50: "the user may not do this on the server"
        case 60: "the server's trial period is over"
        case 70: "not found on the server"
        default: "the server reported an error"
        }
        return .service(source: name, reason: "\(reason) (Subsonic error \(failure.code)\(said))")
    }

    /// What every request says: client, version, JSON.
    private static func common(_ version: String) -> [(String, String)] {
        [("c", clientName), ("v", version), ("f", "json")]
    }

    private func url(_ method: String, _ parameters: [(String, String)]) -> URL {
        URL(string: api.absoluteString + method + "?" + FormEncoding.query(parameters)) ?? api
    }
}
