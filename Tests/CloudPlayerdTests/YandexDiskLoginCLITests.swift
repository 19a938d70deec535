import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `yandex-disk` source as a user meets them, against the Yandex.Disk
/// emulator: the device flow end to end, the daemon scanning with the stored tokens, `cloudplayerd
/// play` refreshing an expired token, a revoked refresh token shown as "needs login" while the
/// other source goes on, and no token in anything printed, at trace level too.
@Suite(.timeLimit(.minutes(4)))
struct YandexDiskLoginCLITests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    @Test("login by device flow, scan, play with a refresh, revoke → needs login (others go on), login again in a browser (PKCE) without a restart; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await YandexDiskTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let folder = try Fixtures.shared.scratchDirectory()
        let config = folder.appendingPathComponent("config.toml")
        let api = server.apiURL.absoluteString
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
        func login() async throws {
            let login = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "yd", "--config", config.path], environment: bus.environment)
            var code: String?
            while code == nil {
                let said = login.outputSoFar()
                if said.contains("enter the code ") { code = said.components(separatedBy: "enter the code ").last?.split(separator: "\n").first.map(String.init) }
                else { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(login.outputSoFar().contains("open \(api)/device"))
            try await server.enter(userCode: try #require(code))
            let result = await login.wait()
            #expect(result.status == 0 && result.stdout.contains("Logged in"), "\(result.stdout) \(result.stderr)")
            printed += result.stdout + result.stderr
        }
        try await login()
        let tokenFile = bus.dataHome.appendingPathComponent("cloudplayerd/tokens/yd.json")
        var tokens = try Self.tokens(in: tokenFile)
        #expect(tokens.count == 2)

        let scan = try await ctl("scan", "yd", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("yd: 2 folders, 1 tracks") && scan.stdout.contains("plain: 1 folders, 1 tracks"),
                "\(scan.stdout) \(scan.stderr)")
        printed += scan.stdout + scan.stderr

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes.
        try await server.control(#"{"expire_access": true}"#)
        let output = folder.appendingPathComponent("out.wav")
        let played = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                              "--log-level", "trace", "cloudplayer://yd/Music/Album/a.mp3"],
                                                             environment: ["XDG_DATA_HOME": bus.dataHome.path])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
        tokens.formUnion(try Self.tokens(in: tokenFile))
        #expect(try await server.log().contains { $0.path == "/token" && $0.status == 200 })

        // The refresh token is revoked: "needs login" for yd; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        let refused = try await ctl("scan", "yd")
        #expect(refused.status == 1 && refused.stdout.contains("needs login"), "\(refused.stdout) \(refused.stderr)")
        let sources = try await ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("yd ") && $0.contains("needs login") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
        printed += refused.stdout + refused.stderr + sources.stdout + other.stdout

        // Again, in a browser this time: the authorize page sends the browser back to the
        // loopback listener with a code, redeemed with the PKCE verifier.
        let browser = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "yd", "--browser", "--config", config.path],
                                       environment: bus.environment)
        var address: String?
        while address == nil {
            address = browser.outputSoFar().split(separator: "\n").first { $0.hasPrefix("\(api)/authorize?") }.map(String.init)
            if address == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
                                                            try #require(address)])
        #expect(page.stdout.contains("login received"))
        let browsed = await browser.wait()
        #expect(browsed.status == 0 && browsed.stdout.contains("Logged in"), "\(browsed.stdout) \(browsed.stderr)")
        printed += browsed.stdout + browsed.stderr
        tokens.formUnion(try Self.tokens(in: tokenFile))
        let again = try await ctl("scan", "yd")
        #expect(again.status == 0 && again.stdout.contains("yd: 2 folders, 1 tracks"), "\(again.stdout) \(again.stderr)")
        printed += again.stdout + again.stderr

        daemon.signal(SIGTERM)
        let log = await daemon.wait()
        #expect(log.stderr.components(separatedBy: "source needs login").count == 2, "one journal line for the revocation")
        printed += log.stdout + log.stderr
        await bus.stop()
        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        for token in tokens { #expect(!printed.contains(token), "a token was printed") }
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path) + (try FileManager.default.subpathsOfDirectory(atPath: bus.dataHome.path))
        for token in tokens { #expect(!names.joined(separator: "\n").contains(token)) }
    }

    /// The access and refresh tokens a token file holds now.
    private static func tokens(in file: URL) throws -> Set<String> {
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        return Set(["accessToken", "refreshToken"].compactMap { record[$0] as? String })
    }
}
