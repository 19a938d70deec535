import Config
import Foundation
import Loader
import Model

/// `type = "yandex-disk"`: a folder of a Yandex.Disk, through its REST API (not its WebDAV
/// endpoint, which throttles third-party clients). Listed page by page, played through
/// short-lived download links (`href`) with ranges. Its tracks are `cloudplayer://NAME/PATH`, the
/// file's path on the disk: never a download link, so never a credential.
package struct YandexDiskSource: SourceType, OAuthSource, Equatable {
    package static let typeName = "yandex-disk"
    static let defaultAPI = URL(string: "https://cloud-api.yandex.net")!
    static let keys = Set(["path", "token", "token_file", "token_command", "api_url", "page_size", "tls_ca_file"])
        .union(OAuthSettings.keys)

    package let name: String
    /// The folder scanned, `/` or `/Music` (no trailing slash but for the disk's root).
    package var path: String
    package var token: Secret.Origin?
    /// A login's settings (`cloudplayerctl login NAME`), when no token is configured.
    package var oauth: OAuthSettings?
    package var apiURL: URL
    /// Items per listing page (`limit`).
    package var pageSize: Int
    package var tlsCAFile: String?
    /// Where a login's tokens are kept.
    package var tokenStore = TokenStore.standard

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> YandexDiskSource {
        try section.allow(keys)
        var path = try section.string("path")?.value ?? "/"
        if path.hasPrefix("disk:") { path.removeFirst(5) }
        if !path.hasPrefix("/") { path = "/" + path }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let token = try section.secret("token")
        // Yandex OAuth: a device flow (https://yandex.com/dev/id/doc/en/codes/screen-code-oauth),
        // its device code redeemed as `grant_type=device_code` with `code`.
        var oauth = try OAuthSettings.configure(section, authURL: URL(string: "https://oauth.yandex.com/authorize")!,
                                                tokenURL: URL(string: "https://oauth.yandex.com/token")!,
                                                deviceURL: URL(string: "https://oauth.yandex.com/device/code")!)
        oauth?.deviceGrantType = "device_code"
        oauth?.deviceCodeParameter = "code"
        try OAuthSettings.requireOne(token: token, oauth: oauth, in: section)
        let pageSize = try section.integer("page_size", in: 1...1_000) ?? 200
        return YandexDiskSource(name: section.name, path: path, token: token, oauth: token == nil ? oauth : nil, apiURL: try section.httpURL("api_url") ?? defaultAPI,
                                pageSize: pageSize, tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    /// None: tracks are paths on the disk, not URLs.
    package var root: URL? { nil }
    package var shownLocation: String { "disk:\(path) at \(URLOrigin(apiURL)?.description ?? apiURL.absoluteString)" }
    package var isScannable: Bool { true }
    package var status: String? { loginStatus }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let tokens = try accessTokens(readTimeout: environment.readTimeout)
        let client = try YandexDiskClient(source: self, tokens: tokens, readTimeout: environment.readTimeout)
        return Source(storage: YandexDiskStorage(client: client), input: .remote(YandexDiskInput(client: client)))
    }
}
