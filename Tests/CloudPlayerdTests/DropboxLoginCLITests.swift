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
    @Test("login on the registered loopback redirect, scan, play with a refresh, revoke → needs login (others go on), login again by pasting the code; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await DropboxTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Ålbum/ä.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        try await rig.checkBrowserLogin(server, source: "dbx", prefix: "\(server.apiURL.absoluteString)/oauth2/authorize?",
                                        track: "cloudplayer://dbx/Music/%C3%85lbum/%C3%A4.mp3", as: mp3, tokenPath: "/oauth2/token") { first in
            // The loopback flow on the port the app registered (redirect_port).
            #expect(first.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(server.redirectPort)%2F") && first.contains("token_access_type=offline"))
        } paste: { address in
            // The code the provider's page shows (no redirect).
            #expect(!address.contains("redirect_uri"))
            let page = try await CloudCLIRig.open(address)
            return try #require(page.components(separatedBy: "<code id=\"auth-code\">").last?.components(separatedBy: "</code>").first)
        }
    }
}
