import Foundation

/// The Microsoft Graph emulator (Tests/CloudEmulators/onedrive.py) on 127.0.0.1: Graph and the
/// Microsoft identity platform on one port, the download host `/content` redirects to on another.
/// The drive is a scratch folder (`drive`); `token` is accepted for ever, as a token from the
/// config file; tokens from a login expire as the test says (`control`: `access_ttl`, `busy`,
/// `bad_json`, `forbid`, `forbid_download`, `hashes`, `link_ttl`, `link_status`, `expire_links`,
/// `revoke_refresh`, `expire_access`, `rotate_refresh`, `clear_log`). Stopped when the test
/// process ends.
public final class OneDriveTestServer: EmulatedCloud {
    public let emulator: CloudEmulator
    public let token: String
    public let clientID = "11111111-2222-3333-4444-cloudplayerd"

    public static let secondHost = "download"

    public init() async throws {
        let token = "EwB-permanent-\(UUID().uuidString.prefix(12))", clientID = clientID
        self.token = token
        emulator = try await CloudEmulator(script: "onedrive.py", folderName: "drive") { api, download in
            ["--api-port", String(api), "--download-port", String(download), "--token", token, "--client-id", clientID]
        }
    }

    public var drive: URL { emulator.folder }

    /// Graph's root on the emulator, as `api_url` names it.
    public var graphURL: URL { emulator.apiURL.appendingPathComponent("v1.0") }

    /// The identity platform's endpoints of `tenant` on the emulator, as config keys.
    public func loginKeys(tenant: String = "consumers") -> String {
        let login = emulator.apiURL.absoluteString + "/\(tenant)/oauth2/v2.0"
        return """
            auth_url = "\(login)/authorize"
            token_url = "\(login)/token"
            device_url = "\(login)/devicecode"
            """
    }

    /// Approves (or denies) a device login, as a user who typed `userCode` on the verification page.
    public func enter(userCode: String, deny: Bool = false) async throws {
        _ = try await emulator.get("/device?user_code=\(userCode)" + (deny ? "&deny=1" : ""))
    }

    /// Two `[[source]]` tables: "od" at /Music, which logs in at the emulator's identity platform
    /// with the client id, and "plain" at /Other, with the permanent token in the config.
    public var sourcesText: String {
        """
        [[source]]
        name = "od"
        type = "onedrive"
        path = "/Music"
        api_url = "\(graphURL.absoluteString)"
        client_id = "\(clientID)"
        \(loginKeys())

        [[source]]
        name = "plain"
        type = "onedrive"
        path = "/Other"
        api_url = "\(graphURL.absoluteString)"
        token = "\(token)"
        """
    }
}
