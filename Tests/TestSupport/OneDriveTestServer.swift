import Foundation

/// The Microsoft Graph emulator (Tests/CloudEmulators/onedrive.py) on 127.0.0.1: Graph and the
/// Microsoft identity platform on one port, the download host `/content` redirects to on another.
/// The drive is a scratch folder (`drive`); `token` is accepted for ever, as a token from the
/// config file; tokens from a login expire as the test says (`emulator.control`).
public final class OneDriveTestServer: Sendable {
    public let drive: URL
    public let token: String
    public let clientID = "11111111-2222-3333-4444-cloudplayerd"
    /// Its ports, its control endpoint and its log.
    public let emulator: CloudEmulator

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CloudEmulators/onedrive.py")

    public init() async throws {
        drive = try Fixtures.shared.scratchDirectory().appendingPathComponent("drive")
        try FileManager.default.createDirectory(at: drive, withIntermediateDirectories: true)
        token = "EwB-permanent-\(UUID().uuidString.prefix(12))"
        emulator = try await CloudEmulator.start("onedrive", script: Self.script,
                                                 arguments: ["--root", drive.path, "--token", token, "--client-id", clientID])
    }

    /// Graph's root on the emulator, as `api_url` names it.
    public var apiURL: URL { emulator.apiURL.appendingPathComponent("v1.0") }

    /// The identity platform's endpoints of `tenant` on the emulator, as config keys.
    public func loginKeys(tenant: String = "consumers") -> String {
        let login = emulator.apiURL.absoluteString + "/\(tenant)/oauth2/v2.0"
        return """
            auth_url = "\(login)/authorize"
            token_url = "\(login)/token"
            device_url = "\(login)/devicecode"
            """
    }

    /// Two `[[source]]` tables: "od" at /Music, which logs in at the emulator's identity platform
    /// with the client id, and "plain" at /Other, with the permanent token in the config.
    public var sourcesText: String {
        """
        [[source]]
        name = "od"
        type = "onedrive"
        path = "/Music"
        api_url = "\(apiURL.absoluteString)"
        client_id = "\(clientID)"
        \(loginKeys())

        [[source]]
        name = "plain"
        type = "onedrive"
        path = "/Other"
        api_url = "\(apiURL.absoluteString)"
        token = "\(token)"
        """
    }

    /// Copies a file into the drive at `path` (folders made as needed).
    @discardableResult
    public func publish(_ file: URL, as path: String) throws -> URL {
        try CloudEmulator.publish(file, as: path, in: drive)
    }
}
