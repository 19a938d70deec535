import Config
import FoundationEssentials
import Loader
import Model

/// `type = "yandex-disk"`: a folder of a Yandex.Disk, through its REST API (not its WebDAV
/// endpoint, which throttles third-party clients). Listed page by page, played through
/// short-lived download links (`href`) with ranges. Its tracks are `cloudplayer://NAME/PATH`, the
/// file's path on the disk: never a download link, so never a credential.
package struct YandexDiskSource: SourceType, CloudAccountSource, Equatable {
    package static let typeName = "yandex-disk"
    static let defaultAPI = URL(string: "https://cloud-api.yandex.net")!
    static let keys = CloudAccount.keys.union(["path"])

    package var name: String { account.name }
    /// The folder scanned, `/` or `/Music` (no trailing slash but for the disk's root).
    package var path: String
    /// Its token or login, API root, and items per listing page (`limit`).
    package var account: CloudAccount

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> YandexDiskSource {
        try section.allow(keys)
        let path = try CloudAccount.folderPath(section, droppingPrefix: "disk:")
        let account = try CloudAccount.configure(section, api: defaultAPI, pageSizes: 1...1_000, pageSize: 200) { section throws(ConfigError) in
            // Yandex OAuth: a device flow (https://yandex.com/dev/id/doc/en/codes/screen-code-oauth),
            // its device code redeemed as `grant_type=device_code` with `code`.
            var oauth = try OAuthSettings.configure(section, authURL: URL(string: "https://oauth.yandex.com/authorize")!,
                                                    tokenURL: URL(string: "https://oauth.yandex.com/token")!,
                                                    deviceURL: URL(string: "https://oauth.yandex.com/device/code")!)
            oauth?.deviceGrantType = "device_code"
            oauth?.deviceCodeParameter = "code"
            return oauth
        }
        return YandexDiskSource(path: path, account: account)
    }

    /// None: tracks are paths on the disk, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String { "disk:\(path) at \(account.shownHost)" }
    package var isScannable: Bool { true }
    package var status: String? { get async { await account.loginStatus } }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try YandexDiskClient(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: YandexDiskStorage(client: client), input: .remote(YandexDiskInput(client: client)))
    }
}
