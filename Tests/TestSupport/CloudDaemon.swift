import Foundation

/// A cloud source as a user meets it, for the end-to-end tests of `cloudplayerctl login`: a
/// config file (a cache folder and the emulator's `[[source]]` tables), a private session bus,
/// `cloudplayerd daemon` on it at trace level (so a token printed anywhere would show), and the
/// commands a user types. Tokens land in the bus's `dataHome`.
public final class CloudDaemon: Sendable {
    public static let busName = "org.mpris.MediaPlayer2.cloudplayerd"

    public let folder: URL
    public let config: URL
    public let bus: DBusTestBus
    private let daemon: ChildProcess

    /// Starts the daemon with `sources` (TOML) and waits until it owns its bus name.
    public init(sources: String) async throws {
        folder = try Fixtures.shared.scratchDirectory()
        config = folder.appendingPathComponent("config.toml")
        try """
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"

            \(sources)
            """.write(to: config, atomically: true, encoding: .utf8)
        bus = try await DBusTestBus()
        daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                  environment: bus.environment)
        guard try await bus.waitForName(Self.busName) else { throw TestSupportError("the daemon did not take its bus name") }
    }

    /// `cloudplayerctl ARGUMENTS` against the daemon.
    public func ctl(_ arguments: String...) async throws -> ProcessResult {
        try await bus.run(BuiltProducts.cloudplayerctl, arguments)
    }

    /// `cloudplayerctl login SOURCE [more]`, started; it runs until the user acts.
    public func login(_ source: String, _ more: String...) throws -> ChildProcess {
        try ChildProcess(BuiltProducts.cloudplayerctl, ["login", source, "--config", config.path] + more, environment: bus.environment)
    }

    /// The device flow as a user goes through it: waits for the code `login` prints, hands it to
    /// `enter` (the user typing it at the provider), and waits for the login to end. Also what it
    /// printed before the code was entered.
    public func deviceLogin(_ source: String, enter: (String) async throws -> Void) async throws -> (result: ProcessResult, shown: String) {
        let login = try login(source)
        while true {
            let said = login.outputSoFar()
            if said.contains("enter the code "), let code = said.components(separatedBy: "enter the code ").last?.split(separator: "\n").first {
                try await enter(String(code))
                return (await login.wait(), said)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// `cloudplayerd play --no-mpris` of `url` at trace level into a WAV file, with the daemon's
    /// stored logins.
    public func play(_ url: String, to output: URL) async throws -> ProcessResult {
        try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                 "--log-level", "trace", url], environment: ["XDG_DATA_HOME": bus.dataHome.path])
    }

    /// The stored token file of `source`.
    public func tokenFile(of source: String) -> URL {
        bus.dataHome.appendingPathComponent("cloudplayerd/tokens/\(source).json")
    }

    /// The access and refresh tokens the token file of `source` holds now.
    public func tokens(of source: String) throws -> Set<String> {
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: tokenFile(of: source))) as? [String: Any] ?? [:]
        return Set(["accessToken", "refreshToken"].compactMap { record[$0] as? String })
    }

    /// Every file name under the config's folder and the data folder.
    public func fileNames() throws -> String {
        (try FileManager.default.subpathsOfDirectory(atPath: folder.path) + (try FileManager.default.subpathsOfDirectory(atPath: bus.dataHome.path)))
            .joined(separator: "\n")
    }

    /// Stops the daemon and the bus; what the daemon printed.
    public func stop() async -> ProcessResult {
        daemon.signal(SIGTERM)
        let log = await daemon.wait()
        await bus.stop()
        return log
    }
}
