import Base
import FoundationEssentials
import Model

/// The authorization code grant with PKCE and no listener: the user approves in a browser —
/// possibly on another machine — and pastes what comes back here: the code the provider's page
/// shows (Dropbox, for an app that registered no redirect URI), or, for a provider that always
/// redirects (Google), the `http://127.0.0.1:PORT/?code=…` address the browser ends at, which
/// nothing answers. The code is redeemed with the PKCE verifier, so a code read over a shoulder
/// (or caught by another program on that port) is useless elsewhere.
package struct PastedCodeLogin: Sendable {
    package let client: OAuthClient
    /// The port of the redirect URI where the provider requires one; 0: a free one.
    package let port: Int

    package init(client: OAuthClient, port: Int = 0) {
        self.client = client
        self.port = port
    }

    /// `read`: the line the user pastes (nil: the input ended).
    package nonisolated(nonsending) func run(show: @Sendable (String) -> Void,
                                             read: @Sendable () async throws -> String?) async throws -> TokenRecord {
        let source = client.source
        // A port free now (nothing listens on it once the probe is closed): the browser's request
        // fails, and its address bar keeps the code for the user to copy.
        var redirectURI: String?
        if client.settings.redirectRequired { redirectURI = "http://127.0.0.1:\(port == 0 ? try LoopbackListener(port: 0).port : port)/" }
        let request = AuthorizationRequest(client: client, redirectURI: redirectURI)
        let what = redirectURI == nil ? "paste the code it shows here"
            : "then paste here the address the browser ends at (http://127.0.0.1:…, a page that does not load)"
        show("To let cloudplayerd read '\(source)', open this address in a browser, allow access, and \(what):\n" + request.address)
        guard let line = try await read(), case let pasted = line.trimmingWhitespace(), !pasted.isEmpty else {
            throw LoaderError.service(source: source, reason: "no code was pasted")
        }
        return try await request.redeem(try Self.code(in: pasted, state: request.state, source: source))
    }

    /// The code in what was pasted: a code, or a redirect address with `code` (and the request's `state`).
    package static func code(in pasted: String, state: String, source: String) throws -> String {
        guard pasted.hasPrefix("http://") || pasted.hasPrefix("https://") else { return pasted }
        let items = URLComponents(string: pasted)?.queryItems ?? []
        let query = Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { first, _ in first })
        if let error = query["error"] {
            throw LoaderError.service(source: source, reason: error == "access_denied" ? "access was denied at the provider" : "login failed: \(error)")
        }
        guard query["state"] == state else {
            throw LoaderError.service(source: source, reason: "the pasted address is of another login (its state differs); log in again")
        }
        guard let code = query["code"], !code.isEmpty else {
            throw LoaderError.service(source: source, reason: "the pasted address has no code")
        }
        return code
    }
}
