import Config
import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import OAuthAnswers
import Parsers

/// Talks to one provider's OAuth endpoints for one source: asks for a device code, redeems a
/// grant (a device code, an authorization code, a refresh token) for tokens. Forms go in POST
/// bodies (a client secret too), never in a URL; answers are read as RFC 6749 says.
package final class OAuthClient: Sendable {
    static let largestAnswer = 1 << 20

    package let source: String
    package let settings: OAuthSettings
    private let transport: HTTPTransport

    /// `readTimeout`: the config file's `[network] read_timeout`; nil, the loader's default;
    /// `proxy`: the same proxies as the source's own requests.
    package init(source: String, settings: OAuthSettings, readTimeout: Double?, proxy: ProxyRules) throws {
        self.source = source
        self.settings = settings
        transport = try HTTPTransport(name: source, readTimeout: readTimeout ?? LoaderSettings().readTimeout, proxy: proxy,
                                      offersCAFile: false)
    }

    package func shutdown() async {
        await transport.shutdown()
    }

    /// RFC 8628 §3.1: a device code and the user code to enter.
    package nonisolated(nonsending) func deviceAuthorization() async throws -> OAuthDeviceAnswer {
        guard let url = settings.deviceURL else {
            throw LoaderError.configuration("source '\(source)': its provider has no device login")
        }
        var form = [("client_id", settings.clientID)]
        if let scope = settings.scope { form.append(("scope", scope)) }
        let bytes = try await post(url, form)
        do {
            return try OAuthAnswerParser.device(bytes)
        } catch {
            throw LoaderError.service(source: source, reason: "the device login endpoint answered \(error)")
        }
    }

    /// Redeems a grant (`grant_type` and its parameters) for tokens; an error answer is an
    /// `OAuthRefusal`. `keeping`: the refresh token to keep when the answer brings no new one.
    package nonisolated(nonsending) func grant(_ form: [(String, String)], keeping refreshToken: String? = nil) async throws -> TokenRecord {
        var form = form + [("client_id", settings.clientID)]
        if let secret = settings.clientSecret {
            do {
                form.append(("client_secret", try await secret.resolve().reveal()))
            } catch {
                throw LoaderError.configuration("source '\(source)'.client_secret: \(error)")
            }
        }
        let bytes = try await post(settings.tokenURL, form)
        let answer: OAuthTokenAnswer
        do {
            answer = try OAuthAnswerParser.token(bytes)
        } catch {
            throw LoaderError.service(source: source, reason: "the token endpoint answered \(error)")
        }
        return TokenRecord(accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? refreshToken,
                           // Whole seconds: the record keeps seconds, and reads back equal.
                           expiresAt: answer.expiresIn.map { Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + Double($0)).rounded(.down)) })
    }

    /// A 200's body; an error answer thrown as an `OAuthRefusal`.
    private nonisolated(nonsending) func post(_ url: URL, _ form: [(String, String)]) async throws -> [UInt8] {
        let body = FormEncoding.query(form)
        let response = try await transport.send(url, method: .POST, headers: ["Content-Type": "application/x-www-form-urlencoded",
                                                                             "Accept": "application/json"], body: body)
        let collected: ByteBuffer
        do {
            collected = try await response.body.collect(upTo: Self.largestAnswer)
        } catch {
            throw LoaderError.network("the OAuth endpoint's answer broke off")
        }
        let bytes = Array(collected.readableBytesView)
        guard response.status == .ok else {
            if let refusal = OAuthAnswerParser.error(bytes) {
                throw OAuthRefusal(code: refusal.error, explanation: refusal.errorDescription)
            }
            throw transport.failure(response.status)
        }
        return bytes
    }
}
