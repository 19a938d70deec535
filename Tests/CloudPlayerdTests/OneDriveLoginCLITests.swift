import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `onedrive` source as a user meets them, against the Graph
/// emulator (on the shared `CloudCLIRig`): the device flow end to end, the daemon scanning with
/// the stored tokens, `cloudplayerd play` refreshing an expired token (the rotated refresh token
/// written back), a revoked refresh token shown as "needs login" while the other source goes on,
/// and no token or download URL in anything printed at trace level.
@Suite(.timeLimit(.minutes(4)))
struct OneDriveLoginCLITests {
    @Test("login by device flow, scan, play with a refresh, revoke → needs login (the other source goes on); no token or download URL printed")
    func loginScanPlayRevoke() async throws {
        let server = try await OneDriveTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)

        let before = try await rig.ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The device flow: the address and code are printed; the user enters the code.
        let login = try rig.login("od")
        var code: String?
        while code == nil {
            let said = login.outputSoFar()
            if said.contains("enter the code ") { code = said.components(separatedBy: "enter the code ").last?.split(separator: "\n").first.map(String.init) }
            else { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(login.outputSoFar().contains("open \(server.apiURL.absoluteString)/device"))
        try await server.enter(userCode: try #require(code))
        await rig.loggedIn(login)
        var tokens = try rig.tokens(of: "od")
        #expect(tokens.count == 2)

        let scan = try await rig.ctl("scan", "od", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("od: 2 folders, 1 track") && scan.stdout.contains("plain: 1 folder, 1 track"),
                "\(scan.stdout) \(scan.stderr)")

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes
        // (Microsoft rotates the refresh token: the new one is written back).
        try await server.control(#"{"expire_access": true}"#)
        try await rig.play("cloudplayer://od/Music/Album/a.mp3", as: mp3)
        try await rig.checkOpenUri("cloudplayer://od/Music/Album/a.mp3")
        let rotated = try rig.tokens(of: "od")
        #expect(rotated.isDisjoint(with: tokens), "new access and refresh tokens written back")
        tokens.formUnion(rotated)

        // The refresh token is revoked: "needs login" for od; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        try await rig.checkNeedsLogin("od", on: server)

        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        try await rig.finish(tokens: tokens)
        let links = try await server.log().filter { $0.host == "download" }.compactMap { $0.path.components(separatedBy: "tempauth=").last }
        #expect(!links.isEmpty)
        for link in links { #expect(!rig.printed.contains(link), "a download URL was printed") }
    }
}
