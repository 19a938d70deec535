import Config
import FoundationEssentials

/// How a source logs in with OAuth 2.0: the user's own app (`client_id`, and `client_secret_file`
/// where the app has a secret) and the provider's endpoints, each overridable in the config file
/// (`auth_url`, `token_url`, `device_url`: tests, on-premise services). One for every provider.
package struct OAuthSettings: Sendable, Equatable {
    package var clientID: String
    package var clientSecret: Secret.Origin?
    /// Where a browser is sent to approve (authorization code + PKCE).
    package var authURL: URL
    package var tokenURL: URL
    /// Where a device code is asked for (RFC 8628); nil for a provider without a device flow.
    package var deviceURL: URL?
    /// The scopes asked for, if the provider needs them named.
    package var scope: String?
    /// How a device code is redeemed: RFC 8628's grant type and parameter, or the provider's own
    /// (Yandex: `device_code` and `code`).
    package var deviceGrantType = "urn:ietf:params:oauth:grant-type:device_code"
    package var deviceCodeParameter = "device_code"
    /// More parameters of the authorization request (Dropbox: `token_access_type=offline`, for a
    /// refresh token).
    package var authorizationParameters: [String: String] = [:]
    /// Whether every authorization request needs a redirect URI, even one whose code the user
    /// pastes (Google, which ended its out-of-band flow): the paste flow then sends the browser
    /// to a loopback address nothing listens on, and the user pastes the address it ends at.
    package var redirectRequired = false
    /// The loopback port of the browser flow, for a provider that wants the redirect URI
    /// registered exactly (Dropbox: `http://127.0.0.1:PORT/`); nil: any free port.
    package var redirectPort: Int?

    /// The keys it reads.
    package static let keys = Set(["client_id", "auth_url", "token_url", "device_url", "redirect_port"])
        .union(Secret.Origin.keys(for: "client_secret"))

    package init(clientID: String, clientSecret: Secret.Origin? = nil, authURL: URL, tokenURL: URL, deviceURL: URL?, scope: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authURL = authURL
        self.tokenURL = tokenURL
        self.deviceURL = deviceURL
        self.scope = scope
    }

    /// The source's OAuth settings, the provider's endpoints where the file names none; nil
    /// without a `client_id`.
    package static func configure(_ section: ConfigSection, authURL: URL, tokenURL: URL, deviceURL: URL?,
                                  scope: String? = nil) throws(ConfigError) -> OAuthSettings? {
        guard let clientID = try section.string("client_id") else {
            for key in keys.subtracting(["client_id"]).sorted() {
                if let value = section.table[key] { throw section.error(key, line: value.line, "only a login needs it: set client_id too") }
            }
            return nil
        }
        var settings = OAuthSettings(clientID: clientID.value, clientSecret: try section.secret("client_secret"),
                                     authURL: try section.httpURL("auth_url") ?? authURL, tokenURL: try section.httpURL("token_url") ?? tokenURL,
                                     deviceURL: try section.httpURL("device_url") ?? deviceURL, scope: scope)
        settings.redirectPort = try section.integer("redirect_port", in: 1...65_535, "a port")
        return settings
    }

    /// Refuses a source with neither a token nor a login's `client_id`.
    package static func requireOne(token: Secret.Origin?, oauth: OAuthSettings?, in section: ConfigSection) throws(ConfigError) {
        guard token == nil && oauth == nil else { return }
        throw section.error("token", "missing (token, token_file, token_command or token_keyring; or client_id and `cloudplayerctl login \(section.name)`)")
    }
}
