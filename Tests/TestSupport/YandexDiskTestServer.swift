import Foundation

/// The Yandex.Disk emulator (Tests/CloudEmulators/yandex_disk.py) on 127.0.0.1: the REST API and
/// Yandex OAuth on one port, the download host its links point at on another. The disk is a
/// scratch folder (`disk`); `token` is accepted for ever, as a token from the config file;
/// tokens from a login expire as the test says (`control`: `access_ttl`, `link_ttl`, `link_status`,
/// `busy`, `bad_json`, `html_href`, `forbid`, `forbid_download`, `revoke_refresh`, `rotate_refresh`,
/// `expire_access`, `clear_log`). Stopped when the test process ends.
public final class YandexDiskTestServer: EmulatedCloud {
    public let emulator: CloudEmulator
    public let token: String
    public let clientID = "cloudplayerd-test"

    public static let secondHost = "download"
    public typealias Exchange = CloudExchange

    public init(downloadBase: ((Int) throws -> String)? = nil) async throws {
        let token = "AQ-permanent-\(UUID().uuidString.prefix(12))", clientID = clientID
        self.token = token
        emulator = try await CloudEmulator(script: "yandex_disk.py", folderName: "disk") { api, download in
            var arguments = ["--api-port", String(api), "--download-port", String(download), "--token", token, "--client-id", clientID]
            if let downloadBase { arguments += ["--download-base", try downloadBase(download)] }
            return arguments
        }
    }

    public var disk: URL { emulator.folder }
    public var apiPort: Int { emulator.apiPort }
    public var downloadPort: Int { emulator.secondPort }

    /// Two `[[source]]` tables: "yd" at /Music, which logs in at the emulator's OAuth endpoints
    /// with the client id, and "plain" at /Other, with the permanent token in the config.
    public var sourcesText: String {
        let api = apiURL.absoluteString
        return """
            [[source]]
            name = "yd"
            type = "yandex-disk"
            path = "/Music"
            api_url = "\(api)"
            client_id = "\(clientID)"
            auth_url = "\(api)/authorize"
            token_url = "\(api)/token"
            device_url = "\(api)/device/code"

            [[source]]
            name = "plain"
            type = "yandex-disk"
            path = "/Other"
            api_url = "\(api)"
            token = "\(token)"
            """
    }

    /// Approves (or denies) a device login, as a user who typed `userCode` on the verification page.
    public func enter(userCode: String, deny: Bool = false) async throws {
        _ = try await emulator.get("/device?user_code=\(userCode)" + (deny ? "&deny=1" : ""))
    }
}
