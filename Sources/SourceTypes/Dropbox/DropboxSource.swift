import Config
import FoundationEssentials
import Loader
import Model

/// `type = "dropbox"`: a folder of a Dropbox, through API v2. Listed with `files/list_folder`
/// and its cursor, played with `files/download` and ranges. Its tracks are
/// `cloudplayer://NAME/PATH`, the file's path in the Dropbox: never a link, never a credential.
/// Logs in with the authorization code grant + PKCE (`token_access_type=offline` for a refresh
/// token), on a registered loopback redirect (`redirect_port`) or by pasting the code.
package struct DropboxSource: SourceType, CloudAccountSource, Equatable {
    package static let typeName = "dropbox"
    static let defaultAPI = URL(string: "https://api.dropboxapi.com")!
    static let defaultContent = URL(string: "https://content.dropboxapi.com")!
    static let keys = CloudAccount.keys.union(["path", "content_url"])

    package var name: String { account.name }
    /// The folder scanned: `/Music`, or `""` for the Dropbox's root (as the API names it).
    package var path: String
    /// Its token or login, API root, and entries per listing page (`limit`).
    package var account: CloudAccount
    /// The host of `files/download`.
    package var contentURL: URL

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> DropboxSource {
        try section.allow(keys)
        let path = try CloudAccount.folderPath(section, root: "")
        let account = try CloudAccount.configure(section, api: defaultAPI, pageSizes: 1...2_000, pageSize: 500) { section throws(ConfigError) in
            // Dropbox OAuth: no device flow; the code flow with PKCE, and offline access for a refresh
            // token (https://developers.dropbox.com/oauth-guide, https://dropbox.tech/developers/using-oauth-2-0-with-offline-access).
            var oauth = try OAuthSettings.configure(section, authURL: URL(string: "https://www.dropbox.com/oauth2/authorize")!,
                                                    tokenURL: URL(string: "https://api.dropboxapi.com/oauth2/token")!, deviceURL: nil)
            oauth?.authorizationParameters = ["token_access_type": "offline"]
            return oauth
        }
        return DropboxSource(path: path, account: account, contentURL: try section.httpURL("content_url") ?? defaultContent)
    }

    /// None: tracks are paths in the Dropbox, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String { "dropbox:\(path.isEmpty ? "/" : path) at \(account.shownHost)" }
    package var isScannable: Bool { true }
    package var status: String? { get async { await account.loginStatus } }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try DropboxClient(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: DropboxStorage(client: client), input: .remote(DropboxInput(client: client)))
    }
}
