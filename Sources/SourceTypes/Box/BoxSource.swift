import Config
import FoundationEssentials
import Loader
import Model

/// `type = "box"`: a folder of a Box account, through Box's API 2.0 — a folder path from the
/// account's root (`path`; Box has no path lookup, so it is walked name by name from folder 0) or
/// a folder's id (`folder_id`). Listed with marker paging, played through the download URL
/// `/files/ID/content` redirects to, fetched with ranges and without the token. Its tracks are
/// `cloudplayer://NAME/PATH`, the file's path below the folder scanned from: never an id or a
/// download URL, never a credential. Logs in with the authorization code grant on a loopback
/// redirect, with the user's own app (client id and secret); Box's refresh tokens are single-use,
/// each refresh's new one stored before its access token is used (`StoredTokens`).
package struct BoxSource: SourceType, CloudAccountSource, Equatable {
    package static let typeName = "box"
    static let defaultAPI = URL(string: "https://api.box.com/2.0")!
    static let keys = CloudAccount.keys.union(["path", "folder_id"])

    package var name: String { account.name }
    /// The folder scanned, below the root: `/` or `/Music` (no trailing slash but for the root).
    package var path: String
    /// The folder scanned, by its id (digits; 0 is the root), instead of a path.
    package var folderID: String?
    /// Its token or login, the API's root (`…/2.0`), and items per listing page (`limit`).
    package var account: CloudAccount

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> BoxSource {
        try section.allow(keys)
        let folderID = try section.string("folder_id")
        if let folderID {
            if section.table["path"] != nil { throw section.error("folder_id", line: folderID.line, "give path or folder_id, not both") }
            // https://developer.box.com/reference/get-folders-id-items: the id in a folder's address, 0 for the root.
            if folderID.value.isEmpty || folderID.value.count > 32 || !folderID.value.allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw section.error("folder_id", line: folderID.line, "expected a Box folder id (digits, as in app.box.com/folder/123; 0 is the root)")
            }
        }
        let path = try CloudAccount.folderPath(section)
        // Marker paging takes up to 1000 items a page. https://developer.box.com/reference/get-folders-id-items
        let account = try CloudAccount.configure(section, api: defaultAPI, pageSizes: 1...1_000, pageSize: 1_000) { section throws(ConfigError) in
            // OAuth 2.0 with the user's own app: https://developer.box.com/reference/get-authorize,
            // https://developer.box.com/reference/post-oauth2-token (client_secret required).
            var oauth = try OAuthSettings.configure(section, authURL: URL(string: "https://account.box.com/api/oauth2/authorize")!,
                                                    tokenURL: URL(string: "https://api.box.com/oauth2/token")!, deviceURL: nil)
            if let settings = oauth, settings.clientSecret == nil, let id = section.table["client_id"] {
                throw section.error("client_id", line: id.line, "Box's token endpoint also needs the app's client secret: set client_secret_file or client_secret_command")
            }
            // Box always redirects to the app's redirect URI: a pasted login pastes the loopback address the browser ends at.
            oauth?.redirectRequired = true
            return oauth
        }
        return BoxSource(path: folderID == nil ? path : "/", folderID: folderID?.value, account: account)
    }

    /// None: tracks are paths in the account, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String {
        "box:\(folderID.map { "folder \($0)" } ?? path) at \(account.shownHost)"
    }
    package var isScannable: Bool { true }
    package var status: String? { get async { await account.loginStatus } }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try BoxClient(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: BoxStorage(client: client), input: .remote(BoxInput(client: client)))
    }
}
