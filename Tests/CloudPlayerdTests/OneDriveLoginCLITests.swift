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
    @Test("login by device flow, scan, play with a refresh, revoke → needs login (the other source goes on); no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await OneDriveTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let daemon = try await CloudDaemon(sources: server.sourcesText)
        var printed = ""

        let before = try await daemon.ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The device flow: the address and code are printed; the user enters the code.
        let login = try await daemon.deviceLogin("od") { try await server.emulator.enter(userCode: $0) }
        #expect(login.shown.contains("open \(server.emulator.apiURL.absoluteString)/device"))
        #expect(login.result.status == 0 && login.result.stdout.contains("Logged in"), "\(login.result.stdout) \(login.result.stderr)")
        printed += login.result.stdout + login.result.stderr
        var tokens = try daemon.tokens(of: "od")
        #expect(tokens.count == 2)

        let scan = try await daemon.ctl("scan", "od", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("od: 2 folders, 1 tracks") && scan.stdout.contains("plain: 1 folders, 1 tracks"),
                "\(scan.stdout) \(scan.stderr)")
        printed += scan.stdout + scan.stderr

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes
        // (Microsoft rotates the refresh token: the new one is written back).
        try await server.emulator.control(#"{"expire_access": true}"#)
        let output = daemon.folder.appendingPathComponent("out.wav")
        let played = try await daemon.play("cloudplayer://od/Music/Album/a.mp3", to: output)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
        let rotated = try daemon.tokens(of: "od")
        #expect(rotated.isDisjoint(with: tokens), "new access and refresh tokens written back")
        tokens.formUnion(rotated)

        // The refresh token is revoked: "needs login" for od; plain goes on.
        try await server.emulator.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        let refused = try await daemon.ctl("scan", "od")
        #expect(refused.status == 1 && refused.stdout.contains("needs login"), "\(refused.stdout) \(refused.stderr)")
        let sources = try await daemon.ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("od ") && $0.contains("needs login") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await daemon.ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
        printed += refused.stdout + refused.stderr + sources.stdout + other.stdout

        let log = await daemon.stop()
        #expect(log.stderr.components(separatedBy: "source needs login").count == 2, "one journal line for the revocation")
        printed += log.stdout + log.stderr
        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        let names = try daemon.fileNames()
        for token in tokens {
            #expect(!printed.contains(token), "a token was printed")
            #expect(!names.contains(token), "a token in a file name")
        }
        let links = try await server.emulator.log().filter { $0.host == "download" }.compactMap { $0.path.components(separatedBy: "tempauth=").last }
        #expect(!links.isEmpty)
        for link in links { #expect(!printed.contains(link), "a download URL was printed") }
    }
}
