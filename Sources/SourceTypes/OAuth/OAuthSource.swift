/// A source type that logs in with OAuth (`cloudplayerctl login NAME`): its settings when the
/// config file gives a `client_id` rather than a token, and where its tokens are kept.
package protocol OAuthSource {
    var name: String { get }
    var oauth: OAuthSettings? { get }
    var tokenStore: TokenStore { get }
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
}
