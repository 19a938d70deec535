import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `dropbox` source as a user meets them, against the Dropbox
/// emulator: the loopback flow on the app's registered redirect port end to end, the daemon
/// scanning with the stored tokens, `cloudplayerd play` refreshing an expired token, a revoked
/// refresh token shown as "needs login" while the other source goes on, the paste-the-code flow
/// without a restart, and no token in anything printed, at trace level too.
@Suite(.timeLimit(.minutes(4)))
struct DropboxLoginCLITests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    @Test("login on the registered loopback redirect, scan, play with a refresh, revoke → needs login (others go on), login again by pasting the code; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await DropboxTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Ålbum/ä.mp3")
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
        /// The authorize address a login printed, once printed.
        func address(of login: ChildProcess) async throws -> String {
            while true {
                if let line = login.outputSoFar().split(separator: "\n").first(where: { $0.hasPrefix("\(api)/oauth2/authorize?") }) { return String(line) }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        func open(_ address: String) async throws -> String {
            try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address]).stdout
        }
        var printed = ""

        let before = try await ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The loopback flow on the port the app registered (redirect_port): the browser is sent back with a code.
        let login = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "dbx", "--config", config.path], environment: bus.environment)
        let first = try await address(of: login)
        #expect(first.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(server.redirectPort)%2F") && first.contains("token_access_type=offline"))
        #expect(try await open(first).contains("login received"))
        let loggedIn = await login.wait()
        #expect(loggedIn.status == 0 && loggedIn.stdout.contains("Logged in"), "\(loggedIn.stdout) \(loggedIn.stderr)")
        printed += loggedIn.stdout + loggedIn.stderr
        let tokenFile = bus.dataHome.appendingPathComponent("cloudplayerd/tokens/dbx.json")
        var tokens = try Self.tokens(in: tokenFile)
        #expect(tokens.count == 2)

        let scan = try await ctl("scan", "dbx", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("dbx: 2 folders, 1 tracks") && scan.stdout.contains("plain: 1 folders, 1 tracks"),
                "\(scan.stdout) \(scan.stderr)")
        printed += scan.stdout + scan.stderr

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes.
        try await server.control(#"{"expire_access": true}"#)
        let output = folder.appendingPathComponent("out.wav")
        let played = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                              "--log-level", "trace", "cloudplayer://dbx/Music/%C3%85lbum/%C3%A4.mp3"],
                                                             environment: ["XDG_DATA_HOME": bus.dataHome.path])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
        tokens.formUnion(try Self.tokens(in: tokenFile))
        #expect(try await server.log().contains { $0.path == "/oauth2/token" && $0.body?.contains("grant_type=refresh_token") == true && $0.status == 200 })

        // The refresh token is revoked: "needs login" for dbx; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        let refused = try await ctl("scan", "dbx")
        #expect(refused.status == 1 && refused.stdout.contains("needs login"), "\(refused.stdout) \(refused.stderr)")
        let sources = try await ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("dbx ") && $0.contains("needs login") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
        printed += refused.stdout + refused.stderr + sources.stdout + other.stdout

        // Again, pasting the code the provider's page shows (no redirect): through a pipe on stdin.
        let pipe = folder.appendingPathComponent("stdin")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let writer = Glibc.open(pipe.path, O_RDWR)
        #expect(writer >= 0)
        let paste = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "dbx", "--paste", "--config", config.path],
                                     environment: bus.environment, input: .file(pipe))
        let second = try await address(of: paste)
        #expect(!second.contains("redirect_uri"))
        let page = try await open(second)
        let code = try #require(page.components(separatedBy: "<code id=\"auth-code\">").last?.components(separatedBy: "</code>").first)
        let line = Array((code + "\n").utf8)
        #expect(write(writer, line, line.count) == line.count)
        close(writer)
        let pasted = await paste.wait()
        #expect(pasted.status == 0 && pasted.stdout.contains("Logged in"), "\(pasted.stdout) \(pasted.stderr)")
        printed += pasted.stdout + pasted.stderr
        tokens.formUnion(try Self.tokens(in: tokenFile))
        let again = try await ctl("scan", "dbx")
        #expect(again.status == 0 && again.stdout.contains("dbx: 2 folders, 1 tracks"), "\(again.stdout) \(again.stderr)")
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
