import Foundation

/// The Yandex.Disk emulator (Tests/CloudEmulators/yandex_disk.py) on 127.0.0.1: the REST API and
/// Yandex OAuth on one port, the download host its links point at on another. The disk is a
/// scratch folder (`disk`); `token` is accepted for ever, as a token from the config file;
/// tokens from a login expire as the test says (`control`). Stopped when the test process ends
/// (a `ServerProcess`).
public final class YandexDiskTestServer: Sendable {
    public let disk: URL
    public let token: String
    public let clientID = "cloudplayerd-test"
    private let emulator: CloudEmulator

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CloudEmulators/yandex_disk.py")

    public typealias Exchange = CloudEmulator.Exchange

    /// `downloadBase`: what links start with (a proxy in front of the download host); the
    /// download host itself when nil.
    public init(downloadBase: ((Int) throws -> String)? = nil) async throws {
        disk = try Fixtures.shared.scratchDirectory().appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        token = "AQ-permanent-\(UUID().uuidString.prefix(12))"
        emulator = try await CloudEmulator.start("yandex-disk", script: Self.script,
                                                 arguments: ["--root", disk.path, "--token", token, "--client-id", clientID]) { download in
            try downloadBase.map { ["--download-base", try $0(download)] } ?? []
        }
    }

    public var apiPort: Int { emulator.apiPort }
    public var downloadPort: Int { emulator.downloadPort }

    public var apiURL: URL { emulator.apiURL }

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

    /// Copies a file onto the disk at `path` (folders made as needed).
    @discardableResult
    public func publish(_ file: URL, as path: String) throws -> URL {
        try CloudEmulator.publish(file, as: path, in: disk)
    }

    /// Changes how the emulator behaves (`access_ttl`, `link_ttl`, `link_status`, `busy`,
    /// `bad_json`, `html_href`, `forbid`, `forbid_download`, `revoke_refresh`, `rotate_refresh`, `expire_access`, `clear_log`):
    /// a JSON object.
    public func control(_ json: String) async throws {
        try await emulator.control(json)
    }

    /// Approves (or denies) a device login, as a user who typed `userCode` on the verification page.
    public func enter(userCode: String, deny: Bool = false) async throws {
        try await emulator.enter(userCode: userCode, deny: deny)
    }

    /// Every request answered so far.
    public func log() async throws -> [Exchange] {
        try await emulator.log()
    }

    /// Body bytes the download host sent.
    public func downloadedBytes() async throws -> Int {
        try await emulator.downloadedBytes()
    }

    public func stop() async {
        await emulator.stop()
    }
}
