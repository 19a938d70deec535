import Foundation
import Model

/// The authorization code grant with PKCE on a loopback redirect (RFC 8252 §7.3): the user opens
/// the provider's page in a browser, approves, and the browser is sent back to
/// `http://127.0.0.1:PORT/` with a code, which is redeemed with the PKCE verifier. For providers
/// without a device flow for the scopes needed (Google Drive), or a fixed `port` (Dropbox).
package struct LoopbackLogin: Sendable {
    package let client: OAuthClient
    package let port: Int

    package init(client: OAuthClient, port: Int = 0) {
        self.client = client
        self.port = port
    }

    package nonisolated(nonsending) func run(show: @Sendable (String) -> Void) async throws -> TokenRecord {
        let source = client.source
        let listener = try LoopbackListener(port: port)
        let pkce = PKCE()
        let state = PKCE().verifier
        var parameters = [("response_type", "code"), ("client_id", client.settings.clientID), ("redirect_uri", listener.redirectURI),
                          ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"), ("state", state)]
        if let scope = client.settings.scope { parameters.append(("scope", scope)) }
        let authURL = client.settings.authURL.absoluteString
        show("To let cloudplayerd read '\(source)', open this address in a browser and allow access:\n"
             + authURL + (authURL.contains("?") ? "&" : "?") + FormEncoding.query(parameters))
        let query = try await listener.awaitRedirect()
        guard query["state"] == state else {
            throw LoaderError.service(source: source, reason: "the login came back with another state; log in again")
        }
        if let error = query["error"] {
            throw LoaderError.service(source: source, reason: error == "access_denied" ? "access was denied at the provider" : "login failed: \(error)")
        }
        guard let code = query["code"] else { throw LoaderError.service(source: source, reason: "the login came back without a code") }
        do {
            return try await client.grant([("grant_type", "authorization_code"), ("code", code), ("code_verifier", pkce.verifier),
                                           ("redirect_uri", listener.redirectURI)])
        } catch let refusal as OAuthRefusal {
            throw LoaderError.service(source: source, reason: "the code was not accepted: \(refusal)")
        }
    }
}
