import Foundation

/// The Dropbox emulator (Tests/CloudEmulators/dropbox.py) on 127.0.0.1: API v2's RPC endpoints
/// and Dropbox OAuth on one port, the content host (`files/download`) on another. The Dropbox is
/// a scratch folder (`files`); `token` is accepted for ever, as a long-lived token from the
/// config file; tokens from a login expire as the test says (`control`: `access_ttl`, `busy`,
/// `busy_download`, `reset_cursors`, `bad_json`, `revoke_refresh`, `expire_access`, `clear_log`). Its app has one
/// registered redirect URI, `http://127.0.0.1:redirectPort/`. Stopped when the test process ends.
public final class DropboxTestServer: EmulatedCloud {
    public let emulator: CloudEmulator
    public let token: String
    public let clientID = "cloudplayerd-dropbox-test"
    /// The loopback port of the app's one registered redirect URI.
    public let redirectPort: Int

    public static let secondHost = "content"
    public typealias Exchange = CloudExchange

    public init() async throws {
        let token = "sl.permanent-\(UUID().uuidString.prefix(12))", clientID = clientID
        let redirectPort = try ServerProcess.freePort()
        self.token = token
        self.redirectPort = redirectPort
        emulator = try await CloudEmulator(script: "dropbox.py", folderName: "files") { api, content in
            ["--api-port", String(api), "--content-port", String(content), "--token", token, "--client-id", clientID,
             "--redirect-uri", "http://127.0.0.1:\(redirectPort)/"]
        }
    }

    public var files: URL { emulator.folder }
    public var contentURL: URL { URL(string: "http://127.0.0.1:\(emulator.secondPort)")! }

    /// Two `[[source]]` tables: "dbx" at /Music, which logs in at the emulator's OAuth endpoints
    /// with the app key and the registered redirect port, and "plain" at /Other, with the
    /// long-lived token in the config.
    public var sourcesText: String {
        let api = apiURL.absoluteString
        return """
            [[source]]
            name = "dbx"
            type = "dropbox"
            path = "/Music"
            api_url = "\(api)"
            content_url = "\(contentURL.absoluteString)"
            client_id = "\(clientID)"
            auth_url = "\(api)/oauth2/authorize"
            token_url = "\(api)/oauth2/token"
            redirect_port = \(redirectPort)

            [[source]]
            name = "plain"
            type = "dropbox"
            path = "/Other"
            api_url = "\(api)"
            content_url = "\(contentURL.absoluteString)"
            token = "\(token)"
            """
    }
}
