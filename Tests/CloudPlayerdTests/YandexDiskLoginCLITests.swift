import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `yandex-disk` source as a user meets them, against the Yandex.Disk
/// emulator: the device flow end to end, the daemon scanning with the stored tokens, `cloudplayerd
/// play` refreshing an expired token, a revoked refresh token shown as "needs login" while the
/// other source goes on, and no token in anything printed, at trace level too.
@Suite(.timeLimit(.minutes(4)))
struct YandexDiskLoginCLITests {
    @Test("login by device flow, scan, play with a refresh, revoke → needs login (others go on), login again in a browser (PKCE) without a restart; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await YandexDiskTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let api = server.apiURL.absoluteString
        let daemon = try await CloudDaemon(sources: server.sourcesText)
        var printed = ""

        let before = try await daemon.ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The device flow: the address and code are printed; the user enters the code.
        let login = try await daemon.deviceLogin("yd") { try await server.enter(userCode: $0) }
        #expect(login.shown.contains("open \(api)/device"))
        #expect(login.result.status == 0 && login.result.stdout.contains("Logged in"), "\(login.result.stdout) \(login.result.stderr)")
        printed += login.result.stdout + login.result.stderr
        var tokens = try daemon.tokens(of: "yd")
        #expect(tokens.count == 2)

        let scan = try await daemon.ctl("scan", "yd", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("yd: 2 folders, 1 tracks") && scan.stdout.contains("plain: 1 folders, 1 tracks"),
                "\(scan.stdout) \(scan.stderr)")
        printed += scan.stdout + scan.stderr

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes.
        try await server.control(#"{"expire_access": true}"#)
        let output = daemon.folder.appendingPathComponent("out.wav")
        let played = try await daemon.play("cloudplayer://yd/Music/Album/a.mp3", to: output)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
        tokens.formUnion(try daemon.tokens(of: "yd"))
        #expect(try await server.log().contains { $0.path == "/token" && $0.status == 200 })

        // The refresh token is revoked: "needs login" for yd; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        let refused = try await daemon.ctl("scan", "yd")
        #expect(refused.status == 1 && refused.stdout.contains("needs login"), "\(refused.stdout) \(refused.stderr)")
        let sources = try await daemon.ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("yd ") && $0.contains("needs login") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await daemon.ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
        printed += refused.stdout + refused.stderr + sources.stdout + other.stdout

        // Again, in a browser this time: the authorize page sends the browser back to the
        // loopback listener with a code, redeemed with the PKCE verifier.
        let browser = try daemon.login("yd", "--browser")
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
        tokens.formUnion(try daemon.tokens(of: "yd"))
        let again = try await daemon.ctl("scan", "yd")
        #expect(again.status == 0 && again.stdout.contains("yd: 2 folders, 1 tracks"), "\(again.stdout) \(again.stderr)")
        printed += again.stdout + again.stderr

        let log = await daemon.stop()
        #expect(log.stderr.components(separatedBy: "source needs login").count == 2, "one journal line for the revocation")
        printed += log.stdout + log.stderr
        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        let names = try daemon.fileNames()
        for token in tokens {
            #expect(!printed.contains(token), "a token was printed")
            #expect(!names.contains(token))
        }
    }
}
