import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `google-drive` source as a user meets them, against the Drive
/// emulator: the loopback flow with PKCE on any 127.0.0.1 port end to end, the daemon scanning
/// with the stored tokens, `cloudplayerd play` refreshing an expired token, a revoked refresh
/// token shown as "needs login" while the other source goes on, `--paste` of the address the
/// browser ends at without a restart, and no token in anything printed, at trace level too.
@Suite(.timeLimit(.minutes(4)))
struct GoogleDriveLoginCLITests {
    @Test("login on a loopback redirect, scan, play with a refresh, revoke → needs login (others go on), login again by pasting the redirected address; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await GoogleDriveTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a song.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        try await rig.checkBrowserLogin(server, source: "drive", prefix: "\(server.accountsURL.absoluteString)/o/oauth2/v2/auth?",
                                        track: "cloudplayer://drive/Music/Album/a%20song.mp3", as: mp3, tokenPath: "/token") { first in
            #expect(first.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A") && first.contains("access_type=offline")
                    && first.contains("prompt=consent") && first.contains("code_challenge_method=S256"))
        } paste: { address in
            // The browser is sent to 127.0.0.1:PORT, where nothing listens: the user pastes that address.
            #expect(address.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
            return try await server.landing(of: address)
        }
    }
}
