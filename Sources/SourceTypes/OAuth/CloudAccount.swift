import Config
import FoundationEssentials
import Loader
import Model

/// What every cloud account source (Yandex.Disk, Dropbox, OneDrive, Google Drive, Box) reads alike:
/// where its token comes from — the config file, or a login's stored tokens — and its API's root,
/// page size and TLS roots. One owner of these settings, so a fifth provider adds only its own.
package struct CloudAccount: Sendable, Equatable {
    package let name: String
    /// A token from the config file (`token`, `token_file`, `token_command`), used instead of a login.
    package var token: Secret.Origin?
    /// A login's settings (`cloudplayerctl login NAME`), when no token is configured.
    package var oauth: OAuthSettings?
    /// The API's root (`api_url`: tests, on-premise services).
    package var apiURL: URL
    /// Entries per listing page (`page_size`).
    package var pageSize: Int
    package var tlsCAFile: String?
    /// Where a login's tokens are kept.
    package var tokenStore = TokenStore.standard

    /// The keys it reads; a source type adds its own.
    package static let keys = Set(["api_url", "page_size", "tls_ca_file"]).union(Secret.Origin.keys(for: "token")).union(OAuthSettings.keys)

    /// Reads the account's keys of `section`: the provider's API root and page size where the
    /// file names none, and its login (`login` reads the OAuth settings with the provider's
    /// endpoints). Refuses a section with neither a token nor a `client_id`.
    package static func configure(_ section: ConfigSection, api: URL, pageSizes: ClosedRange<Int>, pageSize: Int,
                                  login: (ConfigSection) throws(ConfigError) -> OAuthSettings?) throws(ConfigError) -> CloudAccount {
        let token = try section.secret("token")
        let oauth = try login(section)
        try OAuthSettings.requireOne(token: token, oauth: oauth, in: section)
        return CloudAccount(name: section.name, token: token, oauth: token == nil ? oauth : nil, apiURL: try section.httpURL("api_url") ?? api,
                            pageSize: try section.integer("page_size", in: pageSizes) ?? pageSize, tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    /// The folder scanned (`path`), as the providers' APIs spell it: `/Music` — a leading slash
    /// added, trailing ones dropped, and `droppingPrefix` (Yandex's `disk:`) — and the drive's root
    /// as `root` (`/`, Dropbox's `""`).
    package static func folderPath(_ section: ConfigSection, root: String = "/", droppingPrefix prefix: String? = nil) throws(ConfigError) -> String {
        var path = try section.string("path")?.value ?? root
        if let prefix, path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
        while path.hasSuffix("/") { path.removeLast() }
        if path.isEmpty { return root }
        return path.hasPrefix("/") ? path : "/" + path
    }

    /// The API's origin, as `cloudplayerctl sources` shows where a source is.
    package var shownHost: String { URLOrigin(apiURL)?.description ?? apiURL.absoluteString }

    /// What `cloudplayerctl sources` says of the login: nil when all is well or no login is used.
    package var loginStatus: String? {
        get async {
            guard oauth != nil else { return nil }
            do {
                guard let record = try await tokenStore.load(name) else { return "not logged in: run `cloudplayerctl login \(name)`" }
                return record.needsLogin.map { "needs login: \($0); run `cloudplayerctl login \(name)`" }
            } catch {
                return "\(error)"
            }
        }
    }

    /// The account's access tokens: the configured token, else the stored login's, refreshed.
    func accessTokens(readTimeout: Double, proxy: ProxyRules) throws -> any AccessTokens {
        if let token { return ConfiguredToken(source: name, origin: token) }
        guard let oauth else { throw LoaderError.configuration("source '\(name)': no token") }
        return StoredTokens(source: name, store: tokenStore, client: try OAuthClient(source: name, settings: oauth, readTimeout: readTimeout,
                                                                                              proxy: proxy))
    }

    /// A session that sends the account's token, as `scheme`, to the URLs `carriesToken` accepts.
    func session(readTimeout: Double, proxy: ProxyRules, scheme: String, carriesToken: @escaping @Sendable (URL) -> Bool) throws -> TokenSession {
        try TokenSession(name: name, tlsCAFile: tlsCAFile, readTimeout: readTimeout, proxy: proxy,
                         tokens: try accessTokens(readTimeout: readTimeout, proxy: proxy),
                         scheme: scheme, carriesToken: carriesToken)
    }
}

/// A source type that is a cloud account: `cloudplayerctl login NAME` finds its login here.
package protocol CloudAccountSource {
    var account: CloudAccount { get set }
}
