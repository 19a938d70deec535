import Config
import Model

/// A source type that logs in with OAuth (`cloudplayerctl login NAME`): its settings when the
/// config file gives a `client_id` rather than a token, and where its tokens are kept.
package protocol OAuthSource {
    var name: String { get }
    /// A token from the config file (`token`, `token_file`, `token_command`), used instead of a login.
    var token: Secret.Origin? { get }
    var oauth: OAuthSettings? { get }
    var tokenStore: TokenStore { get set }
}

extension OAuthSource {
    /// What `cloudplayerctl sources` says of the login: nil when all is well or no login is used.
    package var loginStatus: String? {
        guard oauth != nil else { return nil }
        do {
            guard let record = try tokenStore.loadNow(name) else { return "not logged in: run `cloudplayerctl login \(name)`" }
            return record.needsLogin.map { "needs login: \($0); run `cloudplayerctl login \(name)`" }
        } catch {
            return "\(error)"
        }
    }

    /// The source's access tokens: the configured token, else the stored login's, refreshed.
    func accessTokens(readTimeout: Double) throws -> any AccessTokens {
        if let token { return ConfiguredToken(source: name, origin: token) }
        guard let oauth else { throw LoaderError.configuration("source '\(name)': no token") }
        return StoredTokens(source: name, store: tokenStore, client: try OAuthClient(source: name, settings: oauth, readTimeout: readTimeout))
    }
}
