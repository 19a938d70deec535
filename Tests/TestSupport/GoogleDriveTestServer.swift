import Foundation

/// The Google Drive emulator (Tests/CloudEmulators/google_drive.py) on 127.0.0.1: Drive API v3 on
/// one port, Google's accounts (authorization and token endpoints) on another. My Drive is a
/// scratch folder (`drive`), where `NAME.gdoc` is a Google Docs file, `NAME.gshortcut` a
/// shortcut to the path it holds, `NAME~twinN` a second item called NAME. `token` is accepted
/// for ever, as a token from the config file; tokens from a login expire as the test says
/// (`control`: `access_ttl`, `busy`, `rate_limit`, `forbid`, `bad_json`, `revoke_refresh`,
/// `expire_access`, `clear_log`). The log calls `alt=media` requests host "media". Stopped when
/// the test process ends.
public final class GoogleDriveTestServer: EmulatedCloud {
    public let emulator: CloudEmulator
    public let token: String
    public let clientID = "1234-cloudplayerd.apps.googleusercontent.com"
    public let clientSecret = "GOCSPX-\(UUID().uuidString.prefix(12))"

    /// A file holding the client secret, for `client_secret_file`.
    public let secretFile: URL

    public static let secondHost = "media"

    public init() async throws {
        let token = "ya29.permanent-\(UUID().uuidString.prefix(12))", clientID = clientID, clientSecret = clientSecret
        self.token = token
        emulator = try await CloudEmulator(script: "google_drive.py", folderName: "drive") { api, accounts in
            ["--api-port", String(api), "--accounts-port", String(accounts), "--token", token, "--client-id", clientID,
             "--client-secret", clientSecret]
        }
        // The secret in a file beside the drive, for `client_secret_file`.
        secretFile = emulator.folder.deletingLastPathComponent().appendingPathComponent("google-client-secret")
        try clientSecret.write(to: secretFile, atomically: true, encoding: .utf8)
    }

    public var drive: URL { emulator.folder }

    /// Drive API v3's root on the emulator, as `api_url` names it.
    public var driveURL: URL { emulator.apiURL.appendingPathComponent("drive/v3") }

    /// The accounts' host: `/o/oauth2/v2/auth` and `/token`.
    public var accountsURL: URL { URL(string: "http://127.0.0.1:\(emulator.secondPort)")! }

    /// The id of the item at `path` (from My Drive), as a user reads it in a folder's address.
    public func id(of path: String) async throws -> String {
        let answer = try await emulator.get("/_control/id?path=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path))
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: String], let id = object["id"] else {
            throw TestSupportError("no id for \(path)")
        }
        return id
    }

    /// A shortcut at `path` (folders made as needed) to the item at `target` (a path from My Drive).
    public func shortcut(at path: String, to target: String) throws {
        let file = drive.appendingPathComponent(path + ".gshortcut")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try target.write(to: file, atomically: true, encoding: .utf8)
    }

    /// A Google Docs file called `path` (no bytes to download).
    public func document(at path: String) throws {
        let file = drive.appendingPathComponent(path + ".gdoc")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "".write(to: file, atomically: true, encoding: .utf8)
    }

    /// The login keys of a source at the emulator's accounts.
    public var loginKeys: String {
        """
        client_id = "\(clientID)"
        client_secret_file = "\(secretFile.path)"
        auth_url = "\(accountsURL.absoluteString)/o/oauth2/v2/auth"
        token_url = "\(accountsURL.absoluteString)/token"
        """
    }

    /// Two `[[source]]` tables: "drive" at /Music, which logs in at the emulator's accounts with
    /// the client id and secret, and "plain" at /Other, with the permanent token in the config.
    public var sourcesText: String {
        """
        [[source]]
        name = "drive"
        type = "google-drive"
        path = "/Music"
        api_url = "\(driveURL.absoluteString)"
        \(loginKeys)

        [[source]]
        name = "plain"
        type = "google-drive"
        path = "/Other"
        api_url = "\(driveURL.absoluteString)"
        token = "\(token)"
        """
    }
}
