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
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        let api = server.apiURL.absoluteString

        let before = try await rig.ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The device flow: the address and code are printed; the user enters the code.
        let login = try rig.login("yd")
        var code: String?
        while code == nil {
            let said = login.outputSoFar()
            if said.contains("enter the code ") { code = said.components(separatedBy: "enter the code ").last?.split(separator: "\n").first.map(String.init) }
            else { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(login.outputSoFar().contains("open \(api)/device"))
        try await server.enter(userCode: try #require(code))
        await rig.loggedIn(login)
        var tokens = try rig.tokens(of: "yd")
        #expect(tokens.count == 2)

        let scan = try await rig.ctl("scan", "yd", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("yd: 2 folders, 1 track") && scan.stdout.contains("plain: 1 folder, 1 track"),
                "\(scan.stdout) \(scan.stderr)")

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes.
        try await server.control(#"{"expire_access": true}"#)
        try await rig.play("cloudplayer://yd/Music/Album/a.mp3", as: mp3)
        try await rig.checkOpenUri("cloudplayer://yd/Music/Album/a.mp3")
        tokens.formUnion(try rig.tokens(of: "yd"))
        #expect(try await server.log().contains { $0.path == "/token" && $0.status == 200 })

        // The refresh token is revoked: "needs login" for yd; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        try await rig.checkNeedsLogin("yd", on: server)

        // Again, in a browser this time: the authorize page sends the browser back to the
        // loopback listener with a code, redeemed with the PKCE verifier.
        let browser = try rig.login("yd", ["--browser"])
        var address: String?
        while address == nil {
            address = browser.outputSoFar().split(separator: "\n").first { $0.hasPrefix("\(api)/authorize?") }.map(String.init)
            if address == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
                                                            try #require(address)])
        #expect(page.stdout.contains("login received"))
        await rig.loggedIn(browser)
        tokens.formUnion(try rig.tokens(of: "yd"))
        let again = try await rig.ctl("scan", "yd")
        #expect(again.status == 0 && again.stdout.contains("yd: 2 folders, 1 track"), "\(again.stdout) \(again.stderr)")

        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        try await rig.finish(tokens: tokens)
    }
}
