import Config
import FoundationEssentials
import Loader
import Model

/// `type = "onedrive"`: a folder of a OneDrive, through Microsoft Graph. Listed page by page
/// (`@odata.nextLink`), played through the pre-authenticated URLs Graph redirects `/content` to,
/// fetched with ranges and without the token. Its tracks are `cloudplayer://NAME/PATH`, the file's
/// path in the drive: never a download URL, so never a credential.
package struct OneDriveSource: SourceType, CloudAccountSource, Equatable {
    package static let typeName = "onedrive"
    static let defaultAPI = URL(string: "https://graph.microsoft.com/v1.0")!
    /// What a login asks for: reading the user's files, and a refresh token (`offline_access`).
    /// https://learn.microsoft.com/graph/permissions-reference#filesread
    static let scope = "Files.Read offline_access"
    static let keys = CloudAccount.keys.union(["path", "tenant"])

    package var name: String { account.name }
    /// The folder scanned, `/` or `/Music` (no trailing slash but for the drive's root).
    package var path: String
    /// Its token or login, Graph's root (`…/v1.0`), and children per listing page (`$top`).
    package var account: CloudAccount

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> OneDriveSource {
        try section.allow(keys)
        let path = try CloudAccount.folderPath(section)
        // The Microsoft identity platform: `common` takes personal and work accounts alike,
        // `consumers` only personal ones, `organizations` or a tenant id only work ones.
        // https://learn.microsoft.com/entra/identity-platform/v2-oauth2-device-code
        let tenant = try section.string("tenant")
        if let tenant, tenant.value.isEmpty || !tenant.value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) }) {
            throw section.error("tenant", line: tenant.line, "expected common, consumers, organizations or a tenant id")
        }
        let login = "https://login.microsoftonline.com/\(tenant?.value ?? "common")/oauth2/v2.0/"
        let account = try CloudAccount.configure(section, api: defaultAPI, pageSizes: 1...1_000, pageSize: 200) { section throws(ConfigError) in
            try OAuthSettings.configure(section, authURL: URL(string: login + "authorize")!, tokenURL: URL(string: login + "token")!,
                                        deviceURL: URL(string: login + "devicecode")!, scope: scope)
        }
        return OneDriveSource(path: path, account: account)
    }

    /// None: tracks are paths in the drive, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String { "onedrive:\(path) at \(account.shownHost)" }
    package var isScannable: Bool { true }
    package var status: String? { get async { await account.loginStatus } }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try OneDriveClient(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: OneDriveStorage(client: client), input: .remote(OneDriveInput(client: client)))
    }
}
