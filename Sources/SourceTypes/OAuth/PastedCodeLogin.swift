import Foundation
import Model

/// The authorization code grant with PKCE and no redirect: the provider's page shows the code
/// after the user approves, and the user pastes it here (Dropbox, for an app that registered no
/// redirect URI). The code is redeemed with the PKCE verifier, so a code read over a shoulder is
/// useless elsewhere.
package struct PastedCodeLogin: Sendable {
    package let client: OAuthClient

    package init(client: OAuthClient) {
        self.client = client
    }

    /// `read`: the line the user pastes (nil: the input ended).
    package nonisolated(nonsending) func run(show: @Sendable (String) -> Void,
                                             read: @Sendable () async throws -> String?) async throws -> TokenRecord {
        let request = AuthorizationRequest(client: client, redirectURI: nil)
        show("To let cloudplayerd read '\(client.source)', open this address in a browser, allow access, and paste the code it shows here:\n"
             + request.address)
        guard let line = try await read(), case let code = line.trimmingCharacters(in: .whitespacesAndNewlines), !code.isEmpty else {
            throw LoaderError.service(source: client.source, reason: "no code was pasted")
        }
        return try await request.redeem(code)
    }
}
