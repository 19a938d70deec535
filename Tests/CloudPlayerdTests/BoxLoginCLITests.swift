import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `box` source as a user meets them, against the Box emulator: the
/// loopback flow end to end with the user's client id and secret, the daemon scanning with the
/// stored tokens, `cloudplayerd play` refreshing an expired token (Box's single-use refresh token
/// replaced by the new one), a revoked refresh token shown as "needs login" while the other source
/// goes on, `--paste` of the address the browser ends at, no token in anything printed at trace
/// level — and the daemon killed (SIGKILL) between storing a rotated refresh token and the first
/// use of its access token, after which the next process plays with what was stored.
@Suite(.timeLimit(.minutes(4)))
struct BoxLoginCLITests {
    @Test("login on a loopback redirect, scan, play with a refresh, revoke → needs login (others go on), login again by pasting the redirected address; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await BoxTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Album/a song.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        try await rig.checkBrowserLogin(server, source: "box", prefix: "\(server.apiURL.absoluteString)/api/oauth2/authorize?",
                                        track: "cloudplayer://box/Music/Album/a%20song.mp3", as: mp3, tokenPath: "/oauth2/token") { first in
            #expect(first.contains("client_id=\(server.clientID)") && first.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
            #expect(!first.contains(server.clientSecret), "the secret goes only in the token request's body")
        } paste: { address in
            // Box sends the browser to 127.0.0.1:PORT, where nothing listens: the user pastes that address.
            try await server.landing(of: address)
        }
        #expect(!rig.printed.contains(server.clientSecret), "the client secret was printed")
    }

    @Test("killed (SIGKILL) once a refresh's new tokens are stored and their access token's first call is under way: the next process plays with the stored refresh token (Box refuses the old one)")
    func killedAfterRefresh() async throws {
        let server = try await BoxTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/a.mp3")
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        let login = try rig.login("box")
        #expect(try await CloudCLIRig.open(try await rig.address(of: login, prefix: server.apiURL.absoluteString)).contains("login received"))
        await rig.loggedIn(login)
        let first = try rig.tokens(of: "box")

        // Box ends the access token: the daemon's next call meets a 401 and refreshes; the first
        // call made with the new access token is held, never answered — the daemon dies there.
        try await server.control(#"{"expire_access": true, "hold_new_access": true, "clear_log": true}"#)
        let scan = try ChildProcess(BuiltProducts.cloudplayerctl, ["scan", "box"], environment: rig.bus.environment)
        while try await !server.log().contains(where: { $0.status == 0 }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        rig.daemon.signal(SIGKILL)
        let daemon = await rig.daemon.wait()
        let scanned = await scan.wait()
        rig.printed += daemon.stdout + daemon.stderr + scanned.stdout + scanned.stderr
        let stored = try rig.tokens(of: "box")
        let alive = try await server.validRefreshTokens()
        #expect(stored.isDisjoint(with: first), "the rotated tokens were stored")
        #expect(alive.count == 1 && stored.contains(alive[0]), "the stored refresh token is the one Box still takes")

        // A new process, and no access token left: only the stored refresh token can bring one.
        try await server.control(#"{"hold_new_access": false, "release": true, "expire_access": true, "clear_log": true}"#)
        try await rig.play("cloudplayer://box/Music/a.mp3", as: mp3)
        let grants = try await server.log().filter { $0.path == "/oauth2/token" }
        #expect(grants.map(\.status) == [200], "one refresh, with the stored token: \(grants.map(\.status))")
        await rig.bus.stop()
        for secret in first.union(stored).union(try rig.tokens(of: "box")).union([server.clientSecret]) {
            #expect(!rig.printed.contains(secret), "a token or the client secret was printed")
        }
    }
}
