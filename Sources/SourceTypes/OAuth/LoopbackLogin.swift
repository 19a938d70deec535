import FoundationEssentials
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
        let request = AuthorizationRequest(client: client, redirectURI: listener.redirectURI)
        show("To let cloudplayerd read '\(source)', open this address in a browser and allow access:\n" + request.address)
        // Only the answer to this request counts: a request with another `state` (a forged one, or
        // a stale tab's) is ignored by the listener, not taken as the login's failure.
        let query = try await listener.awaitRedirect(state: request.state)
        guard query["state"] == request.state else {
            throw LoaderError.service(source: source, reason: "the login came back with another state; log in again")
        }
        if let error = query["error"] {
            throw LoaderError.service(source: source, reason: error == "access_denied" ? "access was denied at the provider" : "login failed: \(error)")
        }
        guard let code = query["code"] else { throw LoaderError.service(source: source, reason: "the login came back without a code") }
        return try await request.redeem(code)
    }
}
