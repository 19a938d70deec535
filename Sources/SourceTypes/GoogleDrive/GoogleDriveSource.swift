import Config
import FoundationEssentials
import Loader
import Model

/// `type = "google-drive"`: a folder of a Google Drive, through Drive API v3 — a folder path from
/// My Drive (`path`) or a folder's id (`folder_id`). Listed with `files.list` page by page
/// (`nextPageToken`), played with `files/ID?alt=media` and ranges, the token in the
/// `Authorization` header only. Its tracks are `cloudplayer://NAME/PATH`, the file's path below
/// My Drive (or below the folder `folder_id` names): never an id-bearing link, never a credential.
/// Logs in with the authorization code grant + PKCE on a loopback redirect (Google's device flow
/// does not cover Drive's scopes), asking for offline access so that a refresh token comes back.
package struct GoogleDriveSource: SourceType, CloudAccountSource, Equatable {
    package static let typeName = "google-drive"
    static let defaultAPI = URL(string: "https://www.googleapis.com/drive/v3")!
    /// What a login asks for: reading the user's files and their metadata.
    /// https://developers.google.com/drive/api/guides/api-specific-auth
    static let scope = "https://www.googleapis.com/auth/drive.readonly"
    static let keys = CloudAccount.keys.union(["path", "folder_id"])

    package var name: String { account.name }
    /// The folder scanned, below My Drive: `/` or `/Music` (no trailing slash but for the root).
    package var path: String
    /// The folder scanned, by its id, instead of a path: its tracks' paths start below it.
    package var folderID: String?
    /// Its token or login, the API's root (`…/drive/v3`), and files per listing page (`pageSize`).
    package var account: CloudAccount

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> GoogleDriveSource {
        try section.allow(keys)
        let folderID = try section.string("folder_id")
        if let folderID {
            if section.table["path"] != nil { throw section.error("folder_id", line: folderID.line, "give path or folder_id, not both") }
            if folderID.value.isEmpty || !folderID.value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) {
                throw section.error("folder_id", line: folderID.line, "expected a Drive folder id (letters, digits, - and _)")
            }
        }
        let path = try CloudAccount.folderPath(section)
        let account = try CloudAccount.configure(section, api: defaultAPI, pageSizes: 1...1_000, pageSize: 500) { section throws(ConfigError) in
            // Google's OAuth 2.0 for desktop apps: the code flow with PKCE on a loopback redirect;
            // `access_type=offline` for a refresh token, `prompt=consent` so that one comes back on
            // every login, not only the first. https://developers.google.com/identity/protocols/oauth2/native-app
            var oauth = try OAuthSettings.configure(section, authURL: URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!,
                                                    tokenURL: URL(string: "https://oauth2.googleapis.com/token")!, deviceURL: nil, scope: scope)
            oauth?.authorizationParameters = ["access_type": "offline", "prompt": "consent"]
            // No out-of-band flow any more: a pasted login pastes the loopback address the browser ends at.
            // https://developers.google.com/identity/protocols/oauth2/resources/oob-migration
            oauth?.redirectRequired = true
            return oauth
        }
        return GoogleDriveSource(path: folderID == nil ? path : "/", folderID: folderID?.value, account: account)
    }

    /// None: tracks are paths in the drive, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String {
        let place = folderID.map { "folder \($0)" } ?? path
        return "google-drive:\(place) at \(account.shownHost)"
    }
    package var isScannable: Bool { true }
    package var status: String? { get async { await account.loginStatus } }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try GoogleDriveClient(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: GoogleDriveStorage(client: client), input: .remote(GoogleDriveInput(client: client)))
    }
}
