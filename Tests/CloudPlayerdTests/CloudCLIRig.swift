import Foundation
import Testing
import TestSupport

/// A cloud source as a user meets it from the command line (Yandex.Disk, Dropbox, OneDrive): a config file
/// with a cache and the emulator's two sources (the first logs in, "plain" has a token), a private
/// bus with the daemon on it at trace level, and everything the programs printed gathered, to
/// check at the end that no token shows anywhere.
final class CloudCLIRig {
    static let busName = "org.mpris.MediaPlayer2.cloudplayerd"

    let folder: URL
    let config: URL
    let bus: DBusTestBus
    let daemon: ChildProcess
    /// Everything the programs printed so far.
    var printed = ""

    init(sourcesText: String) async throws {
        folder = try Fixtures.shared.scratchDirectory()
        config = folder.appendingPathComponent("config.toml")
        try """
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"

            \(sourcesText)
            """.write(to: config, atomically: true, encoding: .utf8)
        bus = try await DBusTestBus()
        daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                  environment: bus.environment)
        #expect(try await bus.waitForName(Self.busName))
    }

    /// `cloudplayerctl ARGUMENTS` against the daemon; what it printed is kept.
    func ctl(_ arguments: String...) async throws -> ProcessResult {
        let result = try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        printed += result.stdout + result.stderr
        return result
    }

    /// `cloudplayerctl login SOURCE ARGUMENTS…`, running (stdin from `input`).
    func login(_ source: String, _ arguments: [String] = [], input: ChildProcess.Input = .null) throws -> ChildProcess {
        try ChildProcess(BuiltProducts.cloudplayerctl, ["login", source, "--config", config.path] + arguments, environment: bus.environment, input: input)
    }

    /// The login ended well; what it printed is kept.
    func loggedIn(_ login: ChildProcess) async {
        let result = await login.wait()
        #expect(result.status == 0 && result.stdout.contains("Logged in"), "\(result.stdout) \(result.stderr)")
        printed += result.stdout + result.stderr
    }

    /// `cloudplayerd play LOCATION` at trace level with the stored logins: it sounds as mpg123 decodes `mp3`.
    func play(_ location: String, as mp3: URL) async throws {
        let output = folder.appendingPathComponent("out-\(UUID().uuidString).wav")
        let played = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                              "--log-level", "trace", location],
                                                             environment: ["XDG_DATA_HOME": bus.dataHome.path])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
    }

    /// After its refresh token was revoked: `source` scans "needs login", `sources` says so, an
    /// MPRIS OpenUri of one of its tracks not cached is refused saying so, and "plain" goes on.
    func checkNeedsLogin(_ source: String, on server: any EmulatedCloud) async throws {
        let notCached = try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/not-cached.mp3")
        defer { try? FileManager.default.removeItem(at: notCached) }
        let opened = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.busName, "/org/mpris/MediaPlayer2",
                                                  "org.mpris.MediaPlayer2.Player", "OpenUri", "s", "cloudplayer://\(source)/Music/not-cached.mp3"])
        #expect(opened.status != 0 && opened.stderr.contains("needs login") && opened.stderr.contains("cloudplayerctl login \(source)"),
                "\(opened.stdout) \(opened.stderr)")
        printed += opened.stdout + opened.stderr
        let refused = try await ctl("scan", source)
        #expect(refused.status == 1 && refused.stdout.contains("needs login"), "\(refused.stdout) \(refused.stderr)")
        let sources = try await ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("\(source) ") && $0.contains("needs login") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
    }

    /// The access and refresh tokens `source`'s token file holds now.
    func tokens(of source: String) throws -> Set<String> {
        let file = bus.dataHome.appendingPathComponent("cloudplayerd/tokens/\(source).json")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        return Set(["accessToken", "refreshToken"].compactMap { record[$0] as? String })
    }

    /// Stops the daemon (one journal line for the revocation) and the bus; none of `tokens` was
    /// printed or is in a file name.
    func finish(tokens: Set<String>) async throws {
        daemon.signal(SIGTERM)
        let log = await daemon.wait()
        #expect(log.stderr.components(separatedBy: "source needs login").count == 2, "one journal line for the revocation")
        printed += log.stdout + log.stderr
        await bus.stop()
        for token in tokens { #expect(!printed.contains(token), "a token was printed") }
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path) + (try FileManager.default.subpathsOfDirectory(atPath: bus.dataHome.path))
        for token in tokens { #expect(!names.joined(separator: "\n").contains(token)) }
    }
}
