import Config
import Foundation
import Loader
import Model

/// `type = "dropbox"`: a folder of a Dropbox, through API v2. Listed with `files/list_folder`
/// and its cursor, played with `files/download` and ranges. Its tracks are
/// `cloudplayer://NAME/PATH`, the file's path in the Dropbox: never a link, never a credential.
/// Logs in with the authorization code grant + PKCE (`token_access_type=offline` for a refresh
/// token), on a registered loopback redirect (`redirect_port`) or by pasting the code.
package struct DropboxSource: SourceType, OAuthSource, Equatable {
    package static let typeName = "dropbox"
    static let defaultAPI = URL(string: "https://api.dropboxapi.com")!
    static let defaultContent = URL(string: "https://content.dropboxapi.com")!
    static let keys = Set(["path", "token", "token_file", "token_command", "api_url", "content_url", "page_size", "tls_ca_file"])
        .union(OAuthSettings.keys)

    package let name: String
    /// The folder scanned: `/Music`, or `""` for the Dropbox's root (as the API names it).
    package var path: String
    package var token: Secret.Origin?
    /// A login's settings (`cloudplayerctl login NAME`), when no token is configured.
    package var oauth: OAuthSettings?
    package var apiURL: URL
    /// The host of `files/download`.
    package var contentURL: URL
    /// Entries per listing page (`limit`).
    package var pageSize: Int
    package var tlsCAFile: String?
    /// Where a login's tokens are kept.
    package var tokenStore = TokenStore.standard

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> DropboxSource {
        try section.allow(keys)
        var path = try section.string("path")?.value ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
        let token = try section.secret("token")
        // Dropbox OAuth: no device flow; the code flow with PKCE, and offline access for a refresh
        // token (https://developers.dropbox.com/oauth-guide, https://dropbox.tech/developers/using-oauth-2-0-with-offline-access).
        var oauth = try OAuthSettings.configure(section, authURL: URL(string: "https://www.dropbox.com/oauth2/authorize")!,
                                                tokenURL: URL(string: "https://api.dropboxapi.com/oauth2/token")!, deviceURL: nil)
        oauth?.authorizationParameters = ["token_access_type": "offline"]
        try OAuthSettings.requireOne(token: token, oauth: oauth, in: section)
        let pageSize = try section.integer("page_size", in: 1...2_000) ?? 500
        return DropboxSource(name: section.name, path: path, token: token, oauth: token == nil ? oauth : nil,
                             apiURL: try section.httpURL("api_url") ?? defaultAPI, contentURL: try section.httpURL("content_url") ?? defaultContent,
                             pageSize: pageSize, tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    /// None: tracks are paths in the Dropbox, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String { "dropbox:\(path.isEmpty ? "/" : path) at \(URLOrigin(apiURL)?.description ?? apiURL.absoluteString)" }
    package var isScannable: Bool { true }
    package var status: String? { loginStatus }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try DropboxClient(source: self, tokens: try accessTokens(readTimeout: environment.readTimeout), readTimeout: environment.readTimeout)
        return Source(storage: DropboxStorage(client: client), input: .remote(DropboxInput(client: client)))
    }
}
