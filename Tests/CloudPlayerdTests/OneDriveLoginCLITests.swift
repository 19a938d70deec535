import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `onedrive` source as a user meets them, against the Graph
/// emulator: the device flow end to end, the daemon scanning with the stored tokens,
/// `cloudplayerd play` refreshing an expired token (the rotated refresh token written back), a
/// revoked refresh token shown as "needs login" while the other source goes on, and no token or
/// download URL in anything printed at trace level.
@Suite(.timeLimit(.minutes(4)))
struct OneDriveLoginCLITests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    @Test("login by device flow, scan, play with a refresh, revoke → needs login (the other source goes on); no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await OneDriveTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let folder = try Fixtures.shared.scratchDirectory()
        let config = folder.appendingPathComponent("config.toml")
        try """
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"

            \(server.sourcesText)
            """.write(to: config, atomically: true, encoding: .utf8)
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                      environment: bus.environment)
        #expect(try await bus.waitForName(Self.name))
        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }
        var printed = ""

        let before = try await ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The device flow: the address and code are printed; the user enters the code.
        let login = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "od", "--config", config.path], environment: bus.environment)
        var code: String?
        while code == nil {
            let said = login.outputSoFar()
            if said.contains("enter the code ") { code = said.components(separatedBy: "enter the code ").last?.split(separator: "\n").first.map(String.init) }
            else { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(login.outputSoFar().contains("open \(server.emulator.apiURL.absoluteString)/device"))
        try await server.emulator.enter(userCode: try #require(code))
        let loggedIn = await login.wait()
        #expect(loggedIn.status == 0 && loggedIn.stdout.contains("Logged in"), "\(loggedIn.stdout) \(loggedIn.stderr)")
        printed += loggedIn.stdout + loggedIn.stderr
        let tokenFile = bus.dataHome.appendingPathComponent("cloudplayerd/tokens/od.json")
        var tokens = try Self.tokens(in: tokenFile)
        #expect(tokens.count == 2)

        let scan = try await ctl("scan", "od", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("od: 2 folders, 1 tracks") && scan.stdout.contains("plain: 1 folders, 1 tracks"),
                "\(scan.stdout) \(scan.stderr)")
        printed += scan.stdout + scan.stderr

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes
        // (Microsoft rotates the refresh token: the new one is written back).
        try await server.emulator.control(#"{"expire_access": true}"#)
        let output = folder.appendingPathComponent("out.wav")
        let played = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                              "--log-level", "trace", "cloudplayer://od/Music/Album/a.mp3"],
                                                             environment: ["XDG_DATA_HOME": bus.dataHome.path])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
        let rotated = try Self.tokens(in: tokenFile)
        #expect(rotated.isDisjoint(with: tokens), "new access and refresh tokens written back")
        tokens.formUnion(rotated)

        // The refresh token is revoked: "needs login" for od; plain goes on.
        try await server.emulator.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        let refused = try await ctl("scan", "od")
        #expect(refused.status == 1 && refused.stdout.contains("needs login"), "\(refused.stdout) \(refused.stderr)")
        let sources = try await ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("od ") && $0.contains("needs login") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
        printed += refused.stdout + refused.stderr + sources.stdout + other.stdout

        daemon.signal(SIGTERM)
        let log = await daemon.wait()
        printed += log.stdout + log.stderr
        await bus.stop()
        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        for token in tokens { #expect(!printed.contains(token), "a token was printed") }
        let links = try await server.emulator.log().filter { $0.host == "download" }.compactMap { $0.path.components(separatedBy: "tempauth=").last }
        #expect(!links.isEmpty)
        for link in links { #expect(!printed.contains(link), "a download URL was printed") }
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path) + (try FileManager.default.subpathsOfDirectory(atPath: bus.dataHome.path))
        for token in tokens { #expect(!names.joined(separator: "\n").contains(token)) }
    }

    /// The access and refresh tokens a token file holds now.
    private static func tokens(in file: URL) throws -> Set<String> {
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        return Set(["accessToken", "refreshToken"].compactMap { record[$0] as? String })
    }
}
