import Foundation

/// The Box emulator (Tests/CloudEmulators/box.py) on 127.0.0.1: the API 2.0, the authorize page
/// and the token endpoint on one port, the download host `/content` redirects to on another (so
/// another origin). The account's files are a scratch folder (`files`), `NAME.weblink` a web
/// link; `token` is accepted for ever, as a token from the config file; tokens from a login
/// expire as the test says, and each refresh token is single-use (`control`: `access_ttl`,
/// `busy`, `bad_json`, `forbid`, `forbid_download`, `link_ttl`, `link_status`, `expire_links`,
/// `revoke_refresh`, `expire_access`, `hold_new_access`, `release`, `download_rate`,
/// `clear_log`). Stopped when the test process ends.
public final class BoxTestServer: EmulatedCloud {
    public let emulator: CloudEmulator
    public let token: String
    public let clientID = "boxclient\(UUID().uuidString.prefix(8).lowercased())"
    public let clientSecret = "boxsecret-\(UUID().uuidString.prefix(12))"
    /// A file holding the client secret, for `client_secret_file`.
    public let secretFile: URL

    public static let secondHost = "download"

    public init() async throws {
        let token = "box-permanent-\(UUID().uuidString.prefix(12))", clientID = clientID, clientSecret = clientSecret
        self.token = token
        emulator = try await CloudEmulator(script: "box.py", folderName: "files") { api, download in
            ["--api-port", String(api), "--download-port", String(download), "--token", token, "--client-id", clientID,
             "--client-secret", clientSecret]
        }
        secretFile = emulator.folder.deletingLastPathComponent().appendingPathComponent("box-client-secret")
        try clientSecret.write(to: secretFile, atomically: true, encoding: .utf8)
    }

    public var files: URL { emulator.folder }

    /// The API's root on the emulator, as `api_url` names it.
    public var boxAPI: URL { emulator.apiURL.appendingPathComponent("2.0") }

    /// The refresh tokens the emulator would still take.
    public func validRefreshTokens() async throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(try await emulator.get("/_control/tokens").utf8))
    }

    /// The login keys of a source at the emulator.
    public var loginKeys: String {
        """
        client_id = "\(clientID)"
        client_secret_file = "\(secretFile.path)"
        auth_url = "\(emulator.apiURL.absoluteString)/api/oauth2/authorize"
        token_url = "\(emulator.apiURL.absoluteString)/oauth2/token"
        """
    }

    /// Two `[[source]]` tables: "box" at /Music, which logs in at the emulator with the client id
    /// and secret, and "plain" at /Other, with the permanent token in the config.
    public var sourcesText: String {
        """
        [[source]]
        name = "box"
        type = "box"
        path = "/Music"
        api_url = "\(boxAPI.absoluteString)"
        \(loginKeys)

        [[source]]
        name = "plain"
        type = "box"
        path = "/Other"
        api_url = "\(boxAPI.absoluteString)"
        token = "\(token)"
        """
    }
}
