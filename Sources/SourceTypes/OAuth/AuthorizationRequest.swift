import FoundationEssentials
import Model

/// One authorization code request (RFC 6749 §4.1 with PKCE, RFC 7636): the address the user opens,
/// with a fresh verifier's S256 challenge and a random `state`, and the redemption of the code
/// that comes back. Shared by the loopback flow and the paste-the-code flow.
struct AuthorizationRequest: Sendable {
    let client: OAuthClient
    /// `http://127.0.0.1:PORT/`; nil when the provider shows the code for the user to paste.
    let redirectURI: String?
    let pkce = PKCE()
    let state = PKCE().verifier

    /// The provider's page to open in a browser.
    var address: String {
        let settings = client.settings
        var parameters = [("response_type", "code"), ("client_id", settings.clientID)]
        if let redirectURI { parameters.append(("redirect_uri", redirectURI)) }
        parameters += [("code_challenge", pkce.challenge), ("code_challenge_method", "S256"), ("state", state)]
        if let scope = settings.scope { parameters.append(("scope", scope)) }
        parameters += settings.authorizationParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let base = settings.authURL.absoluteString
        return base + (base.contains("?") ? "&" : "?") + FormEncoding.query(parameters)
    }

    /// Redeems `code` with the verifier (and the same redirect URI, as §4.1.3 asks).
    nonisolated(nonsending) func redeem(_ code: String) async throws -> TokenRecord {
        var form = [("grant_type", "authorization_code"), ("code", code), ("code_verifier", pkce.verifier)]
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        do {
            return try await client.grant(form)
        } catch let refusal as OAuthRefusal {
            throw LoaderError.service(source: client.source, reason: "the code was not accepted: \(refusal)")
        }
    }
}
